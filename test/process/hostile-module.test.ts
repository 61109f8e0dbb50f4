/**
 * A hostile operator's module dropped in before a SIGHUP, against the service started with
 * `npm start`'s heap caps and NODE_ENV=production: a floating rejection at import (the
 * process used to exit), `for(;;){}` at import (it used to wedge: /health and SIGTERM
 * unanswered), 5,000 parameters (the event loop used to stall for seconds) and 9,000 (the
 * heap used to run out). Each is refused by the vetting worker (registry/vet.ts) with a log
 * line naming it; /health answers within a second throughout, the other operations answer,
 * and SIGTERM still exits 0. Then a module that passes vetting but rejects and throws from
 * a timer it set: logged, and the process serves on.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  type LogLine,
  type Server,
  START,
  sleep,
  startServer,
  stopAll,
  waitFor,
} from "./helpers.js";

const KEY = "hostile-module-test-key-0123456789abcdef";
const HEADERS = { "x-api-key": KEY };

/** `/health` must answer within this, every time it is asked. */
const HEALTH_MS = 1_000;

/** A module at `ext/<name>`: `before` runs at import, `input` is its parameters' schema. */
const moduleText = (
  name: string,
  { before = "", input = "z.object({})" }: { before?: string; input?: string } = {},
) => `import { decimal, defineOperation, z } from "utility-calculation-service/kit";
${before}
export default defineOperation({
  area: "ext",
  name: "${name}",
  summary: "A hostile-module fixture",
  description: "A hostile-module fixture.",
  input: ${input},
  output: z.object({ ok: z.boolean() }),
  examples: [{ title: "ok", input: {}, output: { ok: true } }],
  handler: () => ({ ok: true }),
});
`;

/** `count` optional decimal parameters, built at import. */
const params = (count: number) =>
  `z.object(Object.fromEntries(Array.from({ length: ${count} }, (_, i) => [\`p\${i}\`, decimal().optional()])))`;

const dirs: string[] = [];

afterAll(async () => {
  await stopAll();
  for (const dir of dirs) await rm(dir, { recursive: true, force: true });
});

/** The service with `ext/good.js` in its operator's folder, started as production starts it. */
async function serve(): Promise<{ server: Server; dir: string }> {
  const dir = await mkdtemp(path.join(tmpdir(), "ucs-hostile-"));
  dirs.push(dir);
  await mkdir(path.join(dir, "ext"));
  const good = path.join(dir, "ext", "good.js");
  await writeFile(good, moduleText("good"));
  const longAgo = new Date(Date.now() - 60_000);
  await utimes(good, longAgo, longAgo);
  const server = await startServer(
    {
      ...START.env,
      NODE_ENV: "production",
      API_KEYS: KEY,
      OPERATIONS_DIRS: dir,
      LOG_LEVEL: "info",
      RATE_LIMIT: "0",
    },
    { nodeFlags: START.nodeFlags, readyTimeoutMs: 60_000 },
  );
  return { server, dir };
}

/**
 * Polls /health (and the other operations) until `until` resolves, then a little longer;
 * returns what went wrong: a slow or failed /health, an operation not answering 200.
 */
async function watch(server: Server, until: Promise<unknown>): Promise<string[]> {
  const problems: string[] = [];
  let done = false;
  void until.finally(() => sleep(500).then(() => (done = true)));
  const deadline = Date.now() + 60_000;
  for (let round = 0; !done && Date.now() < deadline && round < 2_000; round++) {
    try {
      const health = await server.get("/health", { timeoutMs: HEALTH_MS });
      if (health.status !== 200 || health.ms > HEALTH_MS) {
        problems.push(`/health: ${health.status} in ${Math.round(health.ms)} ms`);
      }
      for (const url of ["/v1/ext/good", "/v1/math/sum?numbers=1,2"]) {
        const answer = await server.get(url, { headers: HEADERS, timeoutMs: HEALTH_MS });
        if (answer.status !== 200) problems.push(`${url}: ${answer.status}`);
      }
    } catch (error) {
      problems.push(`${(error as Error).message}`);
      if (!server.running) break;
    }
    await sleep(50);
  }
  return problems;
}

/** Sends SIGHUP and waits (bounded) for the reload's outcome; returns that line. */
async function reload(server: Server): Promise<LogLine | undefined> {
  const outcomes = () =>
    server.logs().filter((l) => /^operations reloaded|^reload refused/.test(l.msg ?? ""));
  const before = outcomes().length;
  server.signal("SIGHUP");
  await waitFor(() => outcomes().length > before || !server.running, 45_000);
  return outcomes()[before];
}

describe.sequential("a hostile module at a reload is refused; the process serves on", () => {
  it.each([
    [
      "a floating rejection at import",
      moduleText("hostile", { before: 'Promise.reject(new Error("floating"));' }),
      /left a promise rejection unhandled at import: floating/,
    ],
    [
      "for(;;){} at import",
      moduleText("hostile", { before: "for (;;) {}" }),
      /did not finish within \d+ ms/,
    ],
    [
      "5,000 parameters",
      moduleText("hostile", { input: params(5_000) }),
      /declares 5000 parameters; at most 64|ran out of memory/,
    ],
    [
      "9,000 parameters",
      moduleText("hostile", { input: params(9_000) }),
      /declares 9000 parameters; at most 64|ran out of memory/,
    ],
  ])(
    "%s",
    async (_what, text, reason) => {
      const { server, dir } = await serve();
      const hostile = path.join(dir, "ext", "hostile.js");
      await writeFile(hostile, text);
      const outcome = reload(server);
      const problems = await watch(server, outcome);
      expect(problems, server.output()).toEqual([]);
      expect((await outcome)?.msg).toBe(
        "reload refused: the operations failed their checks; the previous set keeps serving",
      );
      const refused = server.logged("operation module refused");
      expect(refused.map((line) => line.file)).toEqual([hostile]);
      expect(String(refused[0]?.reason)).toMatch(reason);
      expect((await server.get("/v1/ext/hostile", { headers: HEADERS })).status).toBe(404);
      expect((await server.get("/v1/ext/good", { headers: HEADERS })).status).toBe(200);
      server.signal("SIGTERM");
      expect(await server.waitExit(20_000), server.output()).toEqual({ code: 0, signal: null });
    },
    120_000,
  );

  it("a module that passes vetting, then rejects and throws from its timers: logged, served on", async () => {
    const { server, dir } = await serve();
    // Later than the vetting waits: these reach the serving process.
    await writeFile(
      path.join(dir, "ext", "later.js"),
      moduleText("later", {
        before: [
          'setTimeout(() => { Promise.reject(new Error("rejected later")); }, 300).unref();',
          'setTimeout(() => { throw new Error("thrown later"); }, 400).unref();',
        ].join("\n"),
      }),
    );
    const outcome = reload(server);
    const logged = (msg: string) => server.logged(msg).length > 0;
    const faults = outcome.then(() =>
      waitFor(
        () =>
          logged("unhandled promise rejection; the process serves on") &&
          logged("uncaught exception in an operator's module; the process serves on"),
        10_000,
      ),
    );
    const problems = await watch(server, faults);
    expect(problems, server.output()).toEqual([]);
    expect((await outcome)?.msg).toBe("operations reloaded");
    expect(await faults, server.output()).toBe(true);
    expect((await server.get("/v1/ext/later", { headers: HEADERS })).status).toBe(200);
    server.signal("SIGTERM");
    expect(await server.waitExit(20_000), server.output()).toEqual({ code: 0, signal: null });
  }, 120_000);
});
