/**
 * What the shortcut tests (rest-shortcut, graphql-server-shortcut) share: one HTTP
 * exchange over a real socket, an answer with what varies between any two answers left
 * out, and the check that a shortcut's request line is fastify's.
 */
import { request as httpRequest } from "node:http";
import type { FastifyInstance } from "fastify";
import { expect } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { allOperations, TEST_KEY } from "./helpers.js";

export interface Answer {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Headers that differ between any two answers: the clock, and a generated request id. */
const VARYING = ["date", "x-request-id"];

export const portOf = (app: FastifyInstance) => (app.server.address() as { port: number }).port;

/** A listening app with every operation, with or without the server shortcuts. */
export async function listeningApp(serverShortcuts: boolean, env: Record<string, string> = {}) {
  const app = await buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY, ...env }),
    operations: await allOperations(),
    logger: false,
    serverShortcuts,
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  return app;
}

/**
 * The two apps a shortcut test compares: one with the server shortcuts, which counts the
 * answers fastify sent (refusals included pass its `onResponse` hook; the shortcuts'
 * answers do not), and one without.
 */
export async function twoApps() {
  const counted = { byFastify: 0 };
  const withShortcut = await buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY }),
    operations: await allOperations(),
    logger: false,
  });
  withShortcut.addHook("onResponse", (_request, _reply, done) => {
    counted.byFastify += 1;
    done();
  });
  await withShortcut.listen({ host: "127.0.0.1", port: 0 });
  const fastifyOnly = await listeningApp(false);
  return {
    withShortcut,
    fastifyOnly,
    answeredByFastify: () => counted.byFastify,
    /** Sends one request (`ask`) to both apps: both answers, and whether the shortcut took it. */
    async both(ask: (port: number) => Promise<Answer>) {
      const before = counted.byFastify;
      const fast = await ask(portOf(withShortcut));
      const shortcutTook = counted.byFastify === before;
      const slow = await ask(portOf(fastifyOnly));
      return { fast, slow, shortcutTook };
    },
    async close() {
      await withShortcut.close();
      await fastifyOnly.close();
    },
  };
}

/** One request to `port` over a new connection, and its whole answer. */
export function exchange(
  port: number,
  path: string,
  options: { method?: string; headers?: Record<string, string>; body?: string },
): Promise<Answer> {
  const { method = "GET", headers = {}, body } = options;
  return new Promise((resolve, reject) => {
    const req = httpRequest({ host: "127.0.0.1", port, path, method, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on("data", (chunk: Buffer) => chunks.push(chunk));
      res.on("end", () =>
        resolve({
          status: res.statusCode ?? 0,
          headers: res.headers,
          body: Buffer.concat(chunks).toString(),
        }),
      );
    });
    req.on("error", reject);
    req.end(body);
  });
}

/** The answer without what varies between any two (the date; the request id unless kept). */
export function comparable({ status, headers, body }: Answer, keepRequestId = false) {
  const kept = Object.entries(headers).filter(
    ([name]) => !VARYING.includes(name) || (keepRequestId && name === "x-request-id"),
  );
  return { status, headers: Object.fromEntries(kept), body };
}

/**
 * Checks that two apps counted the same: the calculations of `gateway` and the HTTP
 * answers of the routes that start with `route`.
 */
export async function expectSameCounts(
  gateway: string,
  route: string,
  apps: [FastifyInstance, FastifyInstance],
  headers: Record<string, string>,
): Promise<void> {
  const series = async (app: FastifyInstance) => {
    const text = (await exchange(portOf(app), "/metrics", { headers })).body;
    return text
      .split("\n")
      .filter(
        (line) =>
          (line.startsWith("calculations_total{") && line.includes(`gateway="${gateway}"`)) ||
          ((line.startsWith("http_requests_total{") ||
            line.startsWith("http_request_duration_seconds_count{")) &&
            line.includes(`route="${route}`)),
      )
      .sort();
  };
  const counted = await series(apps[0]);
  expect(counted.length).toBeGreaterThan(0);
  expect(counted).toEqual(await series(apps[1]));
}

/**
 * Sends one request (`ask`) to an app with the server shortcuts and to one without, and
 * checks that both log the same request line for `route` but for the clock and the
 * generated id; answers the shortcut's line.
 */
export async function expectSameRequestLine(
  route: string,
  ask: (port: number) => Promise<Answer>,
): Promise<Record<string, unknown>> {
  const lineOf = async (serverShortcuts: boolean) => {
    const lines: string[] = [];
    const app = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations: await allOperations(),
      logger: { level: "info", stream: { write: (line: string) => lines.push(line) } },
      serverShortcuts,
    });
    await app.listen({ host: "127.0.0.1", port: 0 });
    try {
      const answer = await ask(portOf(app));
      const line = lines
        .map((text) => JSON.parse(text))
        .find((entry) => entry.msg === "request" && entry.route === route);
      expect(line.requestId).toBe(answer.headers["x-request-id"]);
      return line as Record<string, unknown>;
    } finally {
      await app.close();
    }
  };
  // The clock and the generated id differ from line to line; everything else may not.
  const steady = ({
    time: _time,
    requestId: _id,
    durationMs,
    ...rest
  }: Record<string, unknown>) => {
    expect(durationMs).toBeGreaterThanOrEqual(0);
    return rest;
  };
  const fast = await lineOf(true);
  const slow = await lineOf(false);
  expect(Object.keys(fast)).toEqual(Object.keys(slow));
  expect(steady(fast)).toEqual(steady(slow));
  return fast;
}
