/**
 * SIGTERM with requests in flight: the process keeps answering through DRAIN_DELAY
 * (/ready says 503 meanwhile), stops accepting, finishes what it accepted, and exits 0.
 * No accepted request may go unanswered.
 *
 * The clients here ignore /ready and keep opening connections until the process exits,
 * harsher than a load balancer. A connection refused (or reset while connecting) was never
 * accepted: `refused`. Connections still waiting in the kernel's accept queue
 * when the listener closes are reset by the kernel (RST: "read ECONNRESET"): the request
 * was written but the process never accepted it. They are told apart from dropped
 * requests (fresh connection, reset by the peer rather than closed, no response, at the
 * listener's close, request id never logged) and counted as `resetAtClose`, at most one
 * per client. A request the process read and then abandoned ends in a FIN ("socket hang
 * up") or a cut response: `dropped`, like any other failure after the request was written,
 * and that must not happen.
 *
 * Those requests are answered within one turn of the event loop, so none is still being
 * worked on when the listener closes. To have requests truly in flight then, a few slow
 * clients send a request line during the drain delay and the rest of their headers only
 * after the listener has closed: each must still get a complete response (200 or 503).
 */
import { Agent } from "node:http";
import { afterAll, expect, it } from "vitest";
import {
  httpGet,
  RequestFailure,
  runLoad,
  type Server,
  sleep,
  slowGet,
  startServer,
  stopAll,
  waitFor,
} from "./helpers.js";

const KEY = "drain-test-key";
const HEADERS = { "x-api-key": KEY };
const SUM = "/v1/math/sum?numbers=1,2,3";
/** About 37 KB of URL: (-1.5)^3333, exactly; tens of milliseconds of work. */
const PRODUCT = `/v1/stats/product?numbers=${[...Array(3333).fill("1.5,-2,0.5"), "1"].join(",")}`;
const ROOT_1000 = "/v1/math/nth-root?number=2&degree=1000&precision=100";
const CLIENTS = 20;
const DRAIN_DELAY_MS = 1000;
const SLOW_CLIENTS = 5;

afterAll(stopAll);

it("SIGTERM under load: no request dropped, 200s during the drain delay, exit 0", async () => {
  const server: Server = await startServer({
    API_KEYS: KEY,
    DRAIN_DELAY: String(DRAIN_DELAY_MS / 1000),
    SHUTDOWN_TIMEOUT: "10",
    RATE_LIMIT: "0",
  });
  const agent = new Agent({ keepAlive: true, maxSockets: CLIENTS });
  const counts = {
    ok: 0,
    okSentAfterSigterm: 0,
    status503: 0,
    otherStatus: 0,
    refused: 0,
    resetAtClose: 0,
    dropped: 0,
  };
  const dropped: string[] = [];
  const resetIds: string[] = [];
  const otherStatuses: number[] = [];
  let sigtermAt = Number.POSITIVE_INFINITY;

  const load = runLoad({
    clients: CLIENTS,
    maxRequests: 100_000,
    maxMs: 20_000,
    stopWhen: () => !server.running,
    task: async (i) => {
      const path = i % 10 === 3 ? PRODUCT : i % 10 === 7 ? ROOT_1000 : SUM;
      const sentAt = performance.now();
      const requestId = `drain-${i}`;
      try {
        const response = await httpGet(server.port, path, {
          headers: { ...HEADERS, "x-request-id": requestId },
          agent,
        });
        if (response.status === 200) {
          counts.ok++;
          if (sentAt > sigtermAt) counts.okSentAfterSigterm++;
        } else if (response.status === 503) {
          counts.status503++;
        } else {
          counts.otherStatus++;
          otherStatuses.push(response.status);
        }
      } catch (error) {
        if (!(error instanceof RequestFailure)) throw error;
        const sinceSigterm = performance.now() - sigtermAt;
        const { connected, reused, responded } = error.stage;
        if (error.syscall === "connect" && !connected) {
          // ECONNREFUSED, or a connect reset by the closing listener: never accepted.
          counts.refused++;
          await sleep(10); // the listener is gone; do not spin
        } else if (
          // Reset by the closing listener while still in its accept queue: the client sees
          // it on reading the answer, or on writing the request if the reset came first.
          error.code === "ECONNRESET" &&
          (error.syscall === "read" || error.syscall === "write") &&
          connected &&
          !reused &&
          !responded &&
          sinceSigterm >= DRAIN_DELAY_MS
        ) {
          counts.resetAtClose++;
          resetIds.push(requestId);
        } else {
          counts.dropped++;
          dropped.push(
            `${error.code} (${error.message}; ${JSON.stringify(error.stage)}; ` +
              `${Math.round(sinceSigterm)} ms after SIGTERM)`,
          );
        }
      }
    },
  });

  // About 500 ms of load, and at least a few answers (the machine may be busy).
  await sleep(500);
  await waitFor(() => counts.ok >= 10, 5000);
  const okBeforeSigterm = counts.ok;
  sigtermAt = performance.now();
  server.signal("SIGTERM");

  // Begun 600 ms before the listener closes (time to be accepted even on a busy machine),
  // finished 600 ms after it.
  const slow = sleep(DRAIN_DELAY_MS - 600).then(() =>
    Promise.all(
      Array.from({ length: SLOW_CLIENTS }, (_, i) =>
        slowGet(server.port, SUM, { ...HEADERS, "x-request-id": `slow-${i}` }, 1200),
      ),
    ),
  );

  // /ready, on fresh connections, while the drain delay runs.
  const ready: Array<number | string> = [];
  while (server.running && performance.now() - sigtermAt < 1500) {
    try {
      ready.push((await httpGet(server.port, "/ready", { agent: false, timeoutMs: 2000 })).status);
    } catch (error) {
      ready.push(error instanceof RequestFailure ? error.code : String(error));
    }
    await sleep(100);
  }

  const exit = await server.waitExit(11_000);
  const exitMs = Math.round(performance.now() - sigtermAt);
  const total = await load;
  agent.destroy();
  const slowResults = await slow;
  const slowStatuses = slowResults.map((result) => result.status ?? result.error ?? "no response");

  console.log(
    `[drain] ${total} requests: ${JSON.stringify(counts)}; 200s before SIGTERM ${okBeforeSigterm}; ` +
      `exit ${JSON.stringify(exit)} ${exitMs} ms after SIGTERM; /ready during drain: ${ready.join(",")}; ` +
      `slow requests across the close: ${slowStatuses.join(",")}`,
  );
  if (dropped.length > 0) console.log(`[drain] dropped: ${dropped.slice(0, 10).join("; ")}`);

  expect(exit, server.output()).toEqual({ code: 0, signal: null });
  expect(exitMs).toBeLessThan(10_000);
  expect(dropped).toEqual([]);
  // At most one connection per client can be waiting in the accept queue, and the process
  // never saw those requests.
  expect(counts.resetAtClose).toBeLessThanOrEqual(CLIENTS);
  const logged = new Set(server.logged("request").map((line) => line.requestId));
  expect(resetIds.filter((id) => logged.has(id))).toEqual([]);
  expect(otherStatuses).toEqual([]);
  for (const status of slowStatuses) expect([200, 503]).toContain(status);
  expect(okBeforeSigterm).toBeGreaterThan(0);
  expect(counts.okSentAfterSigterm).toBeGreaterThan(0);
  expect(ready).toContain(503);
  const messages = server.logs().map((line) => line.msg);
  expect(messages).toContain("draining");
  expect(messages).toContain("stopped");
  expect(messages.indexOf("draining")).toBeLessThan(messages.indexOf("stopped"));
}, 60_000);

it("SHUTDOWN_TIMEOUT starts after the drain delay (README): an idle server drains and exits 0", async () => {
  // README: DRAIN_DELAY seconds of 503 on /ready, then SHUTDOWN_TIMEOUT seconds for
  // in-flight requests to finish. With nothing in flight this must end in exit 0,
  // whichever of the two is longer.
  const server = await startServer({ API_KEYS: KEY, DRAIN_DELAY: "2", SHUTDOWN_TIMEOUT: "1" });
  const start = performance.now();
  server.signal("SIGTERM");
  const exit = await server.waitExit(6000);
  const ms = Math.round(performance.now() - start);
  console.log(
    `[drain] idle, DRAIN_DELAY=2 SHUTDOWN_TIMEOUT=1: exit ${JSON.stringify(exit)} after ${ms} ms`,
  );
  // Today: {code: 1, timedOut: true} after 1 s. src/server.ts starts the SHUTDOWN_TIMEOUT
  // timer at the signal instead of when the drain delay ends.
  expect({ code: exit?.code, timedOut: server.logged("shutdown timed out").length > 0 }).toEqual({
    code: 0,
    timedOut: false,
  });
  expect(ms).toBeGreaterThanOrEqual(2000);
  expect(server.logged("stopped")).toHaveLength(1);
}, 60_000);

it("default settings: SIGTERM under 50 keep-alive clients loses no request that reached the server", async () => {
  // No DRAIN_DELAY: the listener closes at once. Requests on kept-alive connections are
  // answered (with `Connection: close`); idle connections are closed only once idle; a
  // connection refused, or reset in the kernel's accept queue (never accepted, its request
  // id never logged), never reached the process.
  const server = await startServer({ API_KEYS: KEY });
  const clients = 50;
  const agent = new Agent({ keepAlive: true, maxSockets: clients });
  const counts = { ok: 0, okAfterSigterm: 0, closeAfterSigterm: 0, refused: 0, resetAtClose: 0 };
  const lost: string[] = [];
  const resetIds: string[] = [];
  let sigtermAt = Number.POSITIVE_INFINITY;
  const load = runLoad({
    clients,
    maxRequests: 200_000,
    maxMs: 20_000,
    stopWhen: () => !server.running,
    task: async (i) => {
      const requestId = `default-drain-${i}`;
      const sentAt = performance.now();
      try {
        const response = await httpGet(server.port, i % 10 === 3 ? ROOT_1000 : SUM, {
          headers: { ...HEADERS, "x-request-id": requestId },
          agent,
        });
        if (response.status !== 200) lost.push(`status ${response.status}`);
        else counts.ok++;
        if (sentAt > sigtermAt) {
          counts.okAfterSigterm++;
          if (response.headers.connection === "close") counts.closeAfterSigterm++;
        }
      } catch (error) {
        if (!(error instanceof RequestFailure)) throw error;
        const { connected, reused, responded } = error.stage;
        if (error.syscall === "connect" && !connected) {
          counts.refused++;
          await sleep(10);
        } else if (error.code === "ECONNRESET" && connected && !reused && !responded) {
          counts.resetAtClose++;
          resetIds.push(requestId);
        } else {
          lost.push(`${error.code} (${error.message}; ${JSON.stringify(error.stage)})`);
        }
      }
    },
  });
  await sleep(500);
  await waitFor(() => counts.ok >= 200, 10_000);
  sigtermAt = performance.now();
  server.signal("SIGTERM");
  const exit = await server.waitExit(11_000);
  const exitMs = Math.round(performance.now() - sigtermAt);
  const total = await load;
  agent.destroy();
  console.log(
    `[drain] default settings, ${clients} keep-alive clients: ${total} requests, ${JSON.stringify(counts)}, ` +
      `lost ${lost.length}; exit ${JSON.stringify(exit)} ${exitMs} ms after SIGTERM`,
  );
  if (lost.length > 0) console.log(`[drain] lost: ${lost.slice(0, 10).join("; ")}`);
  expect(exit, server.output()).toEqual({ code: 0, signal: null });
  expect(lost).toEqual([]);
  const logged = new Set(server.logged("request").map((line) => line.requestId));
  expect(resetIds.filter((id) => logged.has(id))).toEqual([]);
  // Kept-alive connections were told to close rather than closed under their clients.
  expect(counts.closeAfterSigterm).toBeGreaterThan(0);
}, 60_000);
