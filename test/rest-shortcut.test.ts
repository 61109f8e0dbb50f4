/**
 * The two HTTP adapters of REST must answer alike: the shortcut (src/rest/shortcut.ts),
 * which answers the usual GET before fastify sees it, and fastify's route. Every request
 * below goes over a real socket to two apps, one with the shortcut and one without, and
 * both answers must be the same: status, headers (but the date and a generated request
 * id) and body, byte for byte. Each case also says whether the shortcut takes it, so the
 * comparison is known to compare the two adapters; the metrics both apps count must end
 * up the same too.
 */
import { connect } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH, allOperations, queryOf, TEST_KEY, urlOf } from "./helpers.js";
import {
  comparable,
  exchange,
  expectSameCounts,
  expectSameRequestLine,
  listeningApp,
  portOf,
  twoApps,
} from "./shortcut-helpers.js";

const send = (
  port: number,
  path: string,
  { method = "GET", headers = AUTH as Record<string, string> } = {},
) => exchange(port, path, { method, headers });

let apps: Awaited<ReturnType<typeof twoApps>>;
const start = listeningApp;

/** Sends one request to both apps; answers both, and whether the shortcut took it. */
const both = (path: string, options: Parameters<typeof send>[2] = {}) =>
  apps.both((port) => send(port, path, options));

beforeAll(async () => {
  apps = await twoApps();
});

afterAll(() => apps?.close());

describe("every example: the shortcut answers it as fastify does", async () => {
  const operations = await allOperations();
  const cases = operations.flatMap((operation) =>
    operation.examples.map((example, index) => ({
      name: `${operation.area}/${operation.name} example ${index + 1}`,
      url: urlOf(operation, queryOf(example.input as Record<string, unknown>)),
    })),
  );
  it.each(cases)("$name", async ({ url }) => {
    const { fast, slow, shortcutTook } = await both(url);
    expect(fast.status).toBe(200);
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(shortcutTook).toBe(true);
  });
});

const LONG_LIST = Array.from({ length: 1100 }, (_, i) => i % 10).join(",");

/** Requests the shortcut leaves to fastify, or takes; either way both apps answer alike. */
const TABLE: {
  name: string;
  path: string;
  method?: string;
  headers?: Record<string, string>;
  shortcutTakes: boolean;
  keepRequestId?: boolean;
}[] = [
  { name: "a plain sum", path: "/v1/math/sum?numbers=1,2,3", shortcutTakes: true },
  {
    name: "the client's request id, echoed",
    path: "/v1/math/sum?numbers=1",
    headers: { ...AUTH, "x-request-id": "client-id-1" },
    shortcutTakes: true,
    keepRequestId: true,
  },
  {
    name: "an answer over 8 KB (counted as a large answer)",
    path: "/v1/misc/fizzbuzz?end=3000",
    shortcutTakes: true,
  },
  { name: "no key", path: "/v1/math/sum?numbers=1", headers: {}, shortcutTakes: false },
  {
    name: "a wrong key",
    path: "/v1/math/sum?numbers=1",
    headers: { "x-api-key": "nope" },
    shortcutTakes: false,
  },
  { name: "an invalid number", path: "/v1/math/sum?numbers=1,x", shortcutTakes: false },
  { name: "an unknown parameter", path: "/v1/math/sum?numbers=1&x=2", shortcutTakes: false },
  {
    name: "a scalar given twice",
    path: "/v1/math/is-between?number=1&number=2&lower=0&upper=3",
    shortcutTakes: false,
  },
  { name: "no parameters", path: "/v1/math/sum", shortcutTakes: false },
  {
    name: "a value the handler refuses",
    path: "/v1/math/nth-root?number=-8&degree=2",
    shortcutTakes: false,
  },
  {
    name: "a 404 from the handler",
    path: "/v1/fun/would-you-rather?id=zzz-999",
    shortcutTakes: false,
  },
  { name: "a malformed percent escape", path: "/v1/math/sum?numbers=%E0%A4", shortcutTakes: false },
  { name: "HEAD", path: "/v1/math/sum?numbers=1", method: "HEAD", shortcutTakes: false },
  { name: "POST (405)", path: "/v1/math/sum?numbers=1", method: "POST", shortcutTakes: false },
  { name: "a trailing slash", path: "/v1/math/sum/?numbers=1", shortcutTakes: false },
  { name: "an encoded path", path: "/v1/math/%73um?numbers=1", shortcutTakes: false },
  { name: "an unknown operation", path: "/v1/math/nope?numbers=1", shortcutTakes: false },
  {
    name: "a URL for the heavy lane",
    path: `/v1/math/sum?numbers=${LONG_LIST}`,
    shortcutTakes: false,
  },
  {
    name: "a body on a GET",
    path: "/v1/math/sum?numbers=1",
    headers: { ...AUTH, "content-length": "0" },
    shortcutTakes: false,
  },
];

describe("which requests the shortcut takes; fastify answers the rest alike", () => {
  it.each(TABLE)("$name", async ({ path, method, headers, shortcutTakes, keepRequestId }) => {
    const { fast, slow, shortcutTook } = await both(path, { method, headers });
    expect(comparable(fast, keepRequestId)).toEqual(comparable(slow, keepRequestId));
    expect(shortcutTook).toBe(shortcutTakes);
  });
});

describe("the shortcut steps aside", () => {
  it("while draining: fastify answers, with Connection: close", async () => {
    apps.withShortcut.lifecycle.draining = true;
    try {
      const { fast, shortcutTook } = await both("/v1/math/sum?numbers=1");
      expect(shortcutTook).toBe(false);
      expect(fast.status).toBe(200);
      expect(fast.headers.connection).toBe("close");
    } finally {
      apps.withShortcut.lifecycle.draining = false;
    }
  });

  it.each([
    ["a per-key quota", { RATE_LIMIT: "100" }, "ratelimit"],
    ["CORS origins", { CORS_ORIGINS: "https://app.example" }, "vary"],
  ])("with %s configured: fastify answers every request", async (_name, env, header) => {
    const app = await start(true, env);
    try {
      const answer = await send(portOf(app), "/v1/math/sum?numbers=1,2", {
        headers: { ...AUTH, origin: "https://app.example" },
      });
      expect(answer.status).toBe(200);
      expect(answer.headers[header]).toBeDefined();
    } finally {
      await app.close();
    }
  });

  it("a request pipelined behind another waits its turn; all are answered in order", async () => {
    const head = (numbers: string) =>
      `GET /v1/math/sum?numbers=${numbers} HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\n\r\n`;
    const pipelined = async (app: FastifyInstance) => {
      const socket = connect(portOf(app), "127.0.0.1");
      let received = "";
      socket.setEncoding("utf8");
      socket.on("data", (chunk: string) => {
        received += chunk;
      });
      socket.write(head("1,2") + head("3,4") + head("5,6"));
      const decimals = () => received.match(/"decimal":"\d+"/g) ?? [];
      await expect.poll(() => decimals().length, { timeout: 5000 }).toBe(3);
      socket.destroy();
      return decimals();
    };
    const before = apps.answeredByFastify();
    const answers = await pipelined(apps.withShortcut);
    expect(answers).toEqual(['"decimal":"3"', '"decimal":"7"', '"decimal":"11"']);
    // The first is the shortcut's; the others arrive while it is being written.
    expect(apps.answeredByFastify() - before).toBeLessThan(3);
    expect(await pipelined(apps.fastifyOnly)).toEqual(answers);
  });
});

describe("counted alike", () => {
  it("both apps count the same calculations and HTTP answers", async () => {
    await expectSameCounts("rest", "/v1/", [apps.withShortcut, apps.fastifyOnly], AUTH);
  });
});

describe("a client that pipelines and never reads", () => {
  it("is cut off after one running and 16 waiting, however small the answers", async () => {
    // One write of 1,000 requests: node parses a whole read's worth of them at once, while
    // the first answer is still on the socket. Each must wait its turn, not be answered
    // into memory behind it.
    const socket = connect(portOf(apps.withShortcut), "127.0.0.1");
    socket.on("error", () => {});
    // Listening from the start: the server may cut the connection before the client reads.
    const closed = new Promise<boolean>((resolve) => socket.once("close", () => resolve(true)));
    await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
    socket.pause();
    const request = `GET /v1/misc/fizzbuzz?end=1180 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\n\r\n`;
    socket.write(request.repeat(1000));
    await new Promise((resolve) => setTimeout(resolve, 500));
    let received = "";
    socket.setEncoding("utf8");
    socket.on("data", (chunk: string) => {
      received += chunk;
    });
    socket.resume();
    const cut = await Promise.race([
      closed,
      new Promise<boolean>((resolve) => setTimeout(() => resolve(false), 5000)),
    ]);
    socket.destroy();
    expect(cut).toBe(true);
    expect(received.split("HTTP/1.1 200 OK").length - 1).toBeLessThanOrEqual(17);
  });
});

describe("logged alike", () => {
  it("the shortcut's request line has fastify's fields and values", async () => {
    const line = await expectSameRequestLine("/v1/math/sum", (port) =>
      send(port, "/v1/math/sum?numbers=1,2"),
    );
    expect(line).toMatchObject({
      method: "GET",
      path: "/v1/math/sum",
      status: 200,
      keyId: expect.any(String),
    });
  });
});
