/**
 * HTTP-level abuse against a real listening server (real sockets, not inject): oversized
 * and malformed requests, slow and idle clients, odd methods, oversized and invalid
 * bodies, smuggling-shaped framing. Every case must end in a bounded answer (a 4xx, or a
 * closed socket) within its time limit, never a 5xx, a crash or a hang, while a normal
 * request (`GET /v1/math/sum?numbers=1,2` with the key) keeps being answered 200 during
 * and after the case.
 *
 * HEADERS_TIMEOUT is 2 s and REQUEST_TIMEOUT 5 s here, so slow clients are cut off
 * quickly. Everything talks to 127.0.0.1 only; every socket is destroyed in afterAll.
 */
import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { buildApp } from "../../src/app.js";
import { loadConfig } from "../../src/config.js";
import { allOperations, TEST_KEY } from "../helpers.js";
import {
  destroyAll,
  type HttpResult,
  httpRequest,
  observed,
  openSocket,
  type RawResult,
  rawExchange,
  ruleBreakers,
  sleep,
} from "./raw-http.js";

const HEADERS_TIMEOUT_S = 2;
const REQUEST_TIMEOUT_S = 5;
/** How late after a timeout the server may cut a slow client off. */
const TIMEOUT_MARGIN_MS = 2000;
const MAX_HEADER_BYTES = 128 * 1024;
const NORMAL_PATH = "/v1/math/sum?numbers=1,2";
const KEY = `x-api-key: ${TEST_KEY}\r\n`;
/** Request head lines every well-formed raw request carries: the key, and close after. */
const STD = `Host: 127.0.0.1\r\n${KEY}Connection: close\r\n`;

let app: FastifyInstance;
let port = 0;
const logLines: string[] = [];

/** Cases run and the slowest answer, for the summary line. */
const stats = { cases: 0, maxMs: 0, slowest: "", normalProbes: 0, unbounded: [] as string[] };

/** Records a case; `hung`: it was still open at its time limit (not a bounded answer). */
function record(name: string, ms: number, hung = false): void {
  stats.cases += 1;
  if (hung) stats.unbounded.push(name);
  if (ms > stats.maxMs) {
    stats.maxMs = ms;
    stats.slowest = name;
  }
}

beforeAll(async () => {
  app = await buildApp({
    config: loadConfig({
      API_KEYS: TEST_KEY,
      HEADERS_TIMEOUT: String(HEADERS_TIMEOUT_S),
      REQUEST_TIMEOUT: String(REQUEST_TIMEOUT_S),
      LOG_LEVEL: "warn",
      // Every client here is 127.0.0.1: the per-address bound has its own process test
      // (test/process/front-door.test.ts); these cases are about single connections.
      MAX_CONNECTIONS_PER_ADDRESS: "0",
      AUTH_FAILURE_LIMIT: "0",
    }),
    operations: await allOperations(),
    // Warnings and errors are kept: an "unexpected fault" line fails the last test.
    logger: { stream: { write: (line: string) => logLines.push(line) } },
  });
  await app.listen({ host: "127.0.0.1", port: 0 });
  const address = app.server.address();
  port = typeof address === "object" && address ? address.port : 0;
});

afterAll(async () => {
  destroyAll();
  if (app) {
    app.server.closeAllConnections();
    await Promise.race([app.close(), sleep(5000)]);
  }
  console.log(
    `http-abuse: ${stats.cases} cases run, ` +
      (stats.unbounded.length === 0
        ? "all bounded"
        : `${stats.unbounded.length} NOT bounded (${stats.unbounded.join(", ")})`) +
      `, max time to answer ${stats.maxMs} ms (${stats.slowest}); ` +
      `${stats.normalProbes} normal requests served during/after`,
  );
});

/** The normal request: must be a 200 with the right sum, quickly. */
async function expectServed(timeoutMs = 3000): Promise<HttpResult> {
  const response = await httpRequest(port, NORMAL_PATH, {
    headers: { "x-api-key": TEST_KEY },
    timeoutMs,
  });
  expect(response.status, `normal request: ${response.body}`).toBe(200);
  expect(JSON.parse(response.body)).toEqual({ result: 3, decimal: "3", count: 2 });
  stats.normalProbes += 1;
  return response;
}

/**
 * Runs `work` while normal requests are sent one after another (at least one), then one
 * more after it: all must be 200. Returns `work`'s value and the slowest probe.
 */
async function alongside<T>(
  work: () => Promise<T>,
  intervalMs = 25,
): Promise<{ value: T; maxProbeMs: number }> {
  let settled = false;
  const task = work().finally(() => {
    settled = true;
  });
  task.catch(() => {
    // Rethrown by the await below.
  });
  let maxProbeMs = 0;
  let probes = 0;
  do {
    maxProbeMs = Math.max(maxProbeMs, (await expectServed()).ms);
    probes += 1;
    if (!settled) await sleep(intervalMs);
  } while (!settled && probes < 300);
  const value = await task;
  await expectServed();
  return { value, maxProbeMs };
}

/** A raw exchange run alongside normal requests, recorded for the summary. */
async function raw(
  name: string,
  data: string | Buffer,
  options: Parameters<typeof rawExchange>[2] = {},
): Promise<RawResult> {
  const { value } = await alongside(() => rawExchange(port, data, options));
  record(name, value.ms, value.timedOut);
  return value;
}

/** The server refused with one of `statuses` and closed (or reset) the connection. */
function expectRefusedAndClosed(result: RawResult, statuses: number[]): void {
  const shown = JSON.stringify({ ...result, body: result.body.slice(0, 200) });
  expect(result.timedOut, `hung: ${shown}`).toBe(false);
  expect(result.closed, shown).toBe(true);
  if (result.status === undefined) {
    // The server answered and reset while the client was still writing: the answer can be
    // lost with the reset. Only a reset counts here, never a silent close without answer.
    expect(["ECONNRESET", "EPIPE"], shown).toContain(result.error);
  } else {
    expect(statuses, shown).toContain(result.status);
  }
}

/** A complete answer with `status`, on a connection the server then closed. */
function expectAnswer(result: RawResult, status: number): void {
  const shown = JSON.stringify({ ...result, body: result.body.slice(0, 300) });
  expect(result.timedOut, `hung: ${shown}`).toBe(false);
  expect(result.status, shown).toBe(status);
}

function get(path: string, extra = ""): string {
  return `GET ${path} HTTP/1.1\r\n${STD}${extra}\r\n`;
}

describe("oversized requests", () => {
  it("a 200 KB URL is a 431", async () => {
    const result = await raw("url 200 KB", get(`/v1/math/sum?numbers=${"1,".repeat(100_000)}1`));
    expectRefusedAndClosed(result, [431]);
  });

  it("a 1 MB URL is a 431", async () => {
    const result = await raw("url 1 MB", get(`/v1/math/sum?numbers=${"1,".repeat(500_000)}1`));
    expectRefusedAndClosed(result, [431]);
  });

  it("a single 200 KB header is a 431", async () => {
    const result = await raw(
      "header 200 KB",
      get(NORMAL_PATH, `X-Big: ${"a".repeat(200_000)}\r\n`),
    );
    expectRefusedAndClosed(result, [431]);
  });

  it("100 header lines are answered normally", async () => {
    const many = Array.from({ length: 97 }, (_, i) => `X-H${i}: v\r\n`).join("");
    const result = await raw("100 headers", get(NORMAL_PATH, many));
    expectAnswer(result, 200);
    expect(JSON.parse(result.body)).toMatchObject({ result: 3 });
  });

  it("5,000 small headers (within 128 KiB): past 100 lines, a 431 (Node 22: the rest ignored)", async () => {
    const many = Array.from({ length: 5000 }, (_, i) => `X-H${i}: v\r\n`).join("");
    const result = await raw("5,000 headers", get(NORMAL_PATH, many));
    if (Number(process.versions.node.split(".")[0]) >= 24) {
      expectRefusedAndClosed(result, [431]);
    } else {
      expectAnswer(result, 200);
    }
  });

  it("20,000 query parameters are a 422 (too many parameters), not work per parameter", async () => {
    const result = await raw(
      "20,000 query parameters",
      get(`/v1/math/sum?${"a=1&".repeat(20_000)}`),
    );
    expectAnswer(result, 422);
    expect(JSON.parse(result.body).detail).toContainEqual({
      loc: ["query"],
      msg: "Value error, too many query parameters",
      type: "value_error",
    });
  });

  it("a 10,000-item list within the limit is a 200", async () => {
    // 10 characters and a comma per item: 110 KB, under the 128 KiB head limit.
    const items = Array.from({ length: 10_000 }, () => "1234567.89").join(",");
    const result = await raw("10,000-item list", get(`/v1/math/sum?numbers=${items}`));
    expectAnswer(result, 200);
    expect(JSON.parse(result.body)).toEqual({
      result: 12_345_678_900,
      decimal: "12345678900",
      count: 10_000,
    });
  });

  /** A GET for hmac-md5 whose whole head (request line and headers) is `total` bytes. */
  function headOfSize(total: number): string {
    const start = "GET /v1/hash/hmac-md5?text=";
    const text = "a".repeat(100_000);
    const rest = ` HTTP/1.1\r\n${STD}\r\n`;
    const keyLength = total - start.length - text.length - "&key=".length - rest.length;
    return `${start}${text}&key=${"k".repeat(keyLength)}${rest}`;
  }

  it("a head just under 128 KiB is served; just over is a 431", async () => {
    const under = headOfSize(MAX_HEADER_BYTES - 256);
    expect(under.length).toBe(MAX_HEADER_BYTES - 256);
    const served = await raw("head 128 KiB - 256", under);
    expectAnswer(served, 200);
    expect(JSON.parse(served.body)).toMatchObject({ textBytes: 100_000 });

    const over = headOfSize(MAX_HEADER_BYTES + 256);
    const refused = await raw("head 128 KiB + 256", over);
    expectRefusedAndClosed(refused, [431]);
  });
});

describe("slow and idle clients", () => {
  it.concurrent("a client sending its headers a byte at a time is cut off after HEADERS_TIMEOUT", async () => {
    // 300 ms a byte: the ~100-byte head would take 30 s; HEADERS_TIMEOUT is 2 s.
    const limitMs = HEADERS_TIMEOUT_S * 1000 + TIMEOUT_MARGIN_MS;
    const { value: result } = await alongside(
      () =>
        rawExchange(port, get(NORMAL_PATH), {
          chunkSize: 1,
          chunkDelayMs: 300,
          timeoutMs: limitMs,
        }),
      200,
    );
    record("slow headers", result.ms, result.timedOut);
    expect(
      result.timedOut,
      `the server still held the slow client's connection ${limitMs} ms after it opened ` +
        `(HEADERS_TIMEOUT ${HEADERS_TIMEOUT_S} s): ${JSON.stringify(result)}`,
    ).toBe(false);
    expect(result.closed).toBe(true);
    if (result.status !== undefined) expect(result.status).toBe(408);
    expect(result.ms).toBeGreaterThanOrEqual(HEADERS_TIMEOUT_S * 1000 - 100);
  });

  it.concurrent("a client sending its body a byte at a time is cut off after REQUEST_TIMEOUT", async () => {
    const limitMs = REQUEST_TIMEOUT_S * 1000 + TIMEOUT_MARGIN_MS;
    const head =
      `POST /graphql HTTP/1.1\r\n${STD}Content-Type: application/json\r\n` +
      "Content-Length: 1000\r\n\r\n";
    const { value: result } = await alongside(
      () =>
        // The head goes at once, then the body one byte every 300 ms (it would take 5 min).
        rawExchange(port, `${head}${" ".repeat(1000)}`, {
          fastBytes: head.length,
          chunkSize: 1,
          chunkDelayMs: 300,
          timeoutMs: limitMs,
        }),
      250,
    );
    record("slow body", result.ms, result.timedOut);
    expect(
      result.timedOut,
      `the server still held the slow body's connection ${limitMs} ms after it opened ` +
        `(REQUEST_TIMEOUT ${REQUEST_TIMEOUT_S} s): ${JSON.stringify(result)}`,
    ).toBe(false);
    expect(result.closed).toBe(true);
    if (result.status !== undefined) expect(result.status).toBe(408);
  });

  it("500 idle connections (half never send, half idle after a request) do not stop service", async () => {
    const silent = 250;
    const keptAlive = 250;
    const sockets = await Promise.all(
      Array.from({ length: silent + keptAlive }, () => openSocket(port)),
    );
    // Half send one keep-alive request and read its answer, then stay idle.
    const answered = await Promise.all(
      sockets.slice(silent).map(
        (socket) =>
          new Promise<boolean>((resolve) => {
            const timer = setTimeout(() => resolve(false), 5000);
            socket.once("data", (chunk: Buffer) => {
              clearTimeout(timer);
              resolve(chunk.toString("latin1").startsWith("HTTP/1.1 200"));
            });
            socket.write(`GET /health HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n`);
          }),
      ),
    );
    expect(answered.every(Boolean)).toBe(true);
    const started = performance.now();
    const served = await Promise.all(Array.from({ length: 20 }, () => expectServed()));
    record("500 idle connections", Math.round(performance.now() - started));
    expect(served).toHaveLength(20);
    expect(app.server.listening).toBe(true);
    const open = await new Promise<number>((resolve, reject) =>
      app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
    );
    expect(open).toBeGreaterThanOrEqual(keptAlive);
    for (const socket of sockets) socket.destroy();
    await expectServed();
  });

  it.concurrent("a connection that never sends a byte is closed after HEADERS_TIMEOUT", async () => {
    const limitMs = HEADERS_TIMEOUT_S * 1000 + TIMEOUT_MARGIN_MS;
    const { value: result } = await alongside(
      () => rawExchange(port, "", { timeoutMs: limitMs }),
      250,
    );
    record("silent connection", result.ms, result.timedOut);
    expect(
      result.timedOut,
      `a connection that sent nothing was still open ${limitMs} ms later ` +
        `(HEADERS_TIMEOUT ${HEADERS_TIMEOUT_S} s): ${JSON.stringify(result)}`,
    ).toBe(false);
    if (result.status !== undefined) expect(result.status).toBe(408);
  });

  it.concurrent("silent connections that never close their side do not keep their slots after the 408", async () => {
    // A client that ignores the server's FIN (a half-open socket) once held its slot among
    // maxConnections for as long as it pleased: 1,024 of them locked every client out.
    const sockets = await Promise.all(
      Array.from(
        { length: 20 },
        () =>
          new Promise<Socket>((resolve, reject) => {
            const socket = connect({ port, host: "127.0.0.1", allowHalfOpen: true });
            socket.on("error", () => {});
            socket.once("connect", () => resolve(socket));
            socket.once("error", reject);
          }),
      ),
    );
    const ended = sockets.map(
      (socket) =>
        new Promise<string>((resolve) => {
          let answer = "";
          socket.on("data", (chunk: Buffer) => {
            answer += chunk.toString("latin1");
          });
          socket.once("end", () => resolve(answer));
        }),
    );
    const answers = await Promise.all(ended);
    expect(answers.every((answer) => answer.startsWith("HTTP/1.1 408"))).toBe(true);
    // Ours stay open; the server's must be gone.
    expect(sockets.every((socket) => !socket.destroyed)).toBe(true);
    await waitUntil(async () => {
      const open = await new Promise<number>((resolve, reject) =>
        app.server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
      );
      return open < 20;
    }, TIMEOUT_MARGIN_MS);
    for (const socket of sockets) socket.destroy();
  });
});

/** Polls `check` until it holds, failing after `timeoutMs`. */
async function waitUntil(check: () => Promise<boolean>, timeoutMs: number): Promise<void> {
  const deadline = performance.now() + timeoutMs;
  while (!(await check())) {
    if (performance.now() > deadline) throw new Error(`still not so after ${timeoutMs} ms`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe("paths", () => {
  it.each(["/v1/%ff/sum", "/v1/math/%C0%80", "/%E0%A4%A"])(
    "%s, not valid percent-encoded UTF-8, is a 400 in the detail shape",
    async (path) => {
      const response = await httpRequest(port, path, { headers: { "x-api-key": TEST_KEY } });
      expect(response.status).toBe(400);
      expect(JSON.parse(response.body)).toEqual({
        detail: "Bad Request: the path is not valid percent-encoded UTF-8",
      });
    },
  );
});

describe("methods", () => {
  it.each(["POST", "PUT", "DELETE", "PATCH", "OPTIONS", "TRACE"])(
    "%s on an operation path is a 405 with Allow",
    async (method) => {
      const { value: response } = await alongside(() =>
        httpRequest(port, NORMAL_PATH, {
          method,
          headers: {
            "x-api-key": TEST_KEY,
            ...(["POST", "PUT", "PATCH"].includes(method)
              ? { "content-type": "application/json" }
              : {}),
          },
          ...(["POST", "PUT", "PATCH"].includes(method) ? { body: "{}" } : {}),
        }),
      );
      record(`${method} operation`, response.ms);
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe("GET, HEAD");
      expect(JSON.parse(response.body)).toEqual({ detail: "Method Not Allowed" });
    },
  );

  it.each(["PUT", "DELETE", "HEAD"])("%s /graphql is a 405 with Allow", async (method) => {
    const { value: response } = await alongside(() =>
      httpRequest(port, "/graphql", { method, headers: { "x-api-key": TEST_KEY } }),
    );
    record(`${method} /graphql`, response.ms);
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe("GET, POST");
  });

  it.each([
    ["lowercase method", `get ${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`],
    ["unknown method FOO", `FOO ${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`],
    ["unknown method with symbols", `G(E)T ${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`],
  ])("%s is a 400 and a closed socket", async (name, request) => {
    expectRefusedAndClosed(await raw(name, request), [400]);
  });

  it.each([
    ["CONNECT to a host", "CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\n"],
    ["CONNECT to an operation path", `CONNECT ${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`],
    ["CONNECT with garbage", "CONNECT \x00\x01\x02 HTTP/1.1\r\n\r\nxxxxxxxx"],
  ])("%s: the socket is closed (no tunnel)", async (name, request) => {
    const result = await raw(name, request);
    expect(result.timedOut).toBe(false);
    expect(result.closed).toBe(true);
    if (result.status !== undefined) expect(result.status).toBeGreaterThanOrEqual(400);
    if (result.status !== undefined) expect(result.status).toBeLessThan(500);
  });

  it("HEAD on an operation path is GET without the body", async () => {
    const headers = { "x-api-key": TEST_KEY };
    const getResponse = await httpRequest(port, NORMAL_PATH, { headers });
    const { value: headResponse } = await alongside(() =>
      httpRequest(port, NORMAL_PATH, { method: "HEAD", headers }),
    );
    record("HEAD operation", headResponse.ms);
    expect(headResponse.status).toBe(200);
    expect(headResponse.body).toBe("");
    expect(headResponse.headers["content-type"]).toBe(getResponse.headers["content-type"]);
    expect(headResponse.headers["content-length"]).toBe(
      String(Buffer.byteLength(getResponse.body)),
    );
    // On the wire too: nothing after the head before the server closes.
    const wire = await raw("HEAD raw", `HEAD ${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`);
    expectAnswer(wire, 200);
    expect(wire.body).toBe("");
    // And without a key, HEAD is refused like GET.
    const anonymous = await httpRequest(port, NORMAL_PATH, { method: "HEAD" });
    expect(anonymous.status).toBe(401);
  });
});

describe("malformed requests", () => {
  const malformed: [string, string | Buffer][] = [
    ["garbage request line", "GARBAGE\r\n\r\n"],
    ["method only", "GET\r\n\r\n"],
    ["extra token after the version", "GET /health HTTP/1.1 extra\r\nHost: x\r\n\r\n"],
    ["bad protocol name", "GET /health HTTX/1.1\r\nHost: x\r\n\r\n"],
    ["HTTP/1.2", "GET /health HTTP/1.2\r\nHost: x\r\n\r\n"],
    ["HTTP/9.9", "GET /health HTTP/9.9\r\nHost: x\r\n\r\n"],
    ["space inside the target", "GET /he alth HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["DEL in the target", "GET /health\x7f HTTP/1.1\r\nHost: x\r\n\r\n"],
    ["header line without a colon", "GET /health HTTP/1.1\r\nHost: x\r\nbad header\r\n\r\n"],
    ["space before the colon", "GET /health HTTP/1.1\r\nHost: x\r\nX-A : b\r\n\r\n"],
    ["empty header name", "GET /health HTTP/1.1\r\nHost: x\r\n: novalue\r\n\r\n"],
    ["control byte in a header name", "GET /health HTTP/1.1\r\nHo\x01st: x\r\n\r\n"],
    ["NUL in a header value", "GET /health HTTP/1.1\r\nHost: x\r\nX-A: b\x00c\r\n\r\n"],
    ["bare CR in a header value", "GET /health HTTP/1.1\r\nHost: x\r\nX-A: a\rb\r\n\r\n"],
    ["obsolete line folding", "GET /health HTTP/1.1\r\nHost: x\r\nX-A: b\r\n c\r\n\r\n"],
    ["LF-only line endings", "GET /health HTTP/1.1\nHost: x\n\n"],
    ["HTTP/1.1 without Host", "GET /health HTTP/1.1\r\n\r\n"],
    ["bad percent-escape in the path", `GET /v1/math/%ZZ HTTP/1.1\r\n${STD}\r\n`],
    // Sent as latin1: the byte 0xE9, raw. Node refuses it, so a value is always ASCII-escaped.
    ["raw non-ASCII byte in the query", `GET /v1/math/sum?numbers=\xe9 HTTP/1.1\r\n${STD}\r\n`],
    [
      "TLS ClientHello bytes",
      Buffer.from([0x16, 0x03, 0x01, 0x00, 0xa5, 0x01, 0x00, 0x00, 0xa1, 0x03, 0x03, 0xff, 0x0d]),
    ],
  ];

  it.each(malformed)("%s: 400 and a closed socket", async (name, request) => {
    expectRefusedAndClosed(await raw(name, request), [400]);
  });

  const keepAlive = (path: string) => `GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEY}\r\n`;
  it.each([
    ["a request", "GET /health HTTP/1.1\r\nHost: x\r\n\r\nGARBAGE\r\n\r\n"],
    ["two requests", `${keepAlive(NORMAL_PATH)}${keepAlive(NORMAL_PATH)}GARBAGE\r\n\r\n`],
    // After `Connection: close`, any further byte is refused, a well-formed request too.
    ["a request with Connection: close", `${get(NORMAL_PATH)}${get(NORMAL_PATH)}`],
  ])(
    "garbage pipelined after %s: the first answer, whole, then the close (no 400 read as an answer)",
    async (name, request) => {
      const result = await raw(`pipelined garbage after ${name}`, request);
      expect(result.timedOut).toBe(false);
      expect(result.closed).toBe(true);
      expect(result.status).toBe(200);
      // Only the first answer: nothing after its head reads as another response.
      expect(result.body.match(/HTTP\/1\.1 /g) ?? [], result.body).toHaveLength(0);
    },
  );

  it("garbage after two requests: the second, never to be answered, is not run", async () => {
    // An operation nothing else here asks for, counted in the metrics.
    const subtractions = async () => {
      const text = (await app.inject({ url: "/metrics", headers: { "x-api-key": TEST_KEY } })).body;
      const line =
        /calculations_total\{operation="math\/subtract",gateway="rest",outcome="ok"\} (\d+)/.exec(
          text,
        );
      return Number(line?.[1] ?? 0);
    };
    const before = await subtractions();
    const path = "/v1/math/subtract?a=3&b=1";
    const result = await rawExchange(port, `${keepAlive(path)}${keepAlive(path)}GARBAGE\r\n\r\n`);
    expect(result.status).toBe(200);
    expect(result.closed).toBe(true);
    expect((await subtractions()) - before).toBe(1);
  });

  it("garbage after a request, and more bytes after it: the whole answer arrives, not a reset", async () => {
    // About 3.2 MB of answer, still being sent while the client writes on.
    const big = `/v1/misc/fizzbuzz?start=-1000000000000000&end=-999999999990001&${Array.from(
      { length: 10 },
      () => `rules=1:${"W".repeat(32)}`,
    ).join("&")}`;
    const socket = connect(port, "127.0.0.1");
    const chunks: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => chunks.push(chunk));
    const ended = new Promise<string | undefined>((resolve) => {
      socket.on("error", (error: NodeJS.ErrnoException) => resolve(error.code));
      socket.on("close", () => resolve(undefined));
    });
    socket.write(`${keepAlive(big)}GARBAGE\r\n\r\n`);
    for (let i = 0; i < 5; i++) {
      await new Promise((resolve) => setTimeout(resolve, 10));
      if (!socket.destroyed) socket.write("more bytes\r\n");
    }
    expect(await ended).toBeUndefined();
    const text = Buffer.concat(chunks).toString("latin1");
    const head = text.slice(0, text.indexOf("\r\n\r\n"));
    expect(head).toMatch(/^HTTP\/1\.1 200 /);
    const length = Number(/content-length: (\d+)/i.exec(head)?.[1]);
    expect(length).toBeGreaterThan(3_000_000);
    expect(text.length - head.length - 4).toBe(length);
  });

  it.each([
    // llhttp accepts these versions; the router then answers for the path (404).
    ["HTTP/2.0 request line", `GET /nope HTTP/2.0\r\n${STD}\r\n`],
    ["HTTP/0.9 request line", "GET /nope HTTP/0.9\r\n\r\n"],
    ["absolute-form target to an unknown path", `GET http://127.0.0.1/nope HTTP/1.1\r\n${STD}\r\n`],
    ["asterisk-form target", `OPTIONS * HTTP/1.1\r\n${STD}\r\n`],
    ["20,000 path segments", `GET /v1/${"a/".repeat(20_000)} HTTP/1.1\r\n${STD}\r\n`],
    // The body parser runs before the 405: an empty JSON body is a 400 first.
    [
      "DELETE with a JSON content type and no body",
      `DELETE ${NORMAL_PATH} HTTP/1.1\r\n${STD}Content-Type: application/json\r\n\r\n`,
    ],
  ])("%s: a bounded 4xx", async (name, request) => {
    const result = await raw(name, request);
    expect(result.timedOut).toBe(false);
    expect(result.status).toBeGreaterThanOrEqual(400);
    expect(result.status).toBeLessThan(500);
  });
});

describe("POST /graphql bodies", () => {
  const post = (contentType: string | undefined, body: string, extra = "") =>
    `POST /graphql HTTP/1.1\r\n${STD}${contentType ? `Content-Type: ${contentType}\r\n` : ""}` +
    `Content-Length: ${Buffer.byteLength(body)}\r\n${extra}\r\n${body}`;

  it("a 2 MB body (over the 1 MB limit) is a 413", async () => {
    const body = `{"query":"${" ".repeat(2 * 1024 * 1024)}"}`;
    const result = await raw("graphql 2 MB body", post("application/json", body));
    expectRefusedAndClosed(result, [413]);
  });

  it("a 2 MB chunked body is a 413", async () => {
    const size = 2 * 1024 * 1024;
    const request =
      `POST /graphql HTTP/1.1\r\n${STD}Content-Type: application/json\r\n` +
      `Transfer-Encoding: chunked\r\n\r\n${size.toString(16)}\r\n${" ".repeat(size)}\r\n0\r\n\r\n`;
    expectRefusedAndClosed(await raw("graphql 2 MB chunked body", request), [413]);
  });

  it("a 2 MB body without a key is a 401 (refused before the body is read)", async () => {
    const request =
      `POST /graphql HTTP/1.1\r\nHost: x\r\nConnection: close\r\n` +
      `Content-Type: application/json\r\nContent-Length: ${2 * 1024 * 1024}\r\n\r\n` +
      " ".repeat(2 * 1024 * 1024);
    expectRefusedAndClosed(await raw("graphql 2 MB without key", request), [401]);
  });

  it("bodies held just short of complete: past 16 MiB of them, a new one is a 503 unread", async () => {
    // Each declares 1 MB and sends all but its last byte: node holds what has arrived.
    const query = '{"query":"{ math { sum(numbers: [\\"1\\"]) { result } } }"}';
    const body = query + " ".repeat(1_000_000 - query.length);
    const head =
      `POST /graphql HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEY}Content-Type: application/json\r\n` +
      `Content-Length: ${body.length}\r\n\r\n`;
    const held = 24;
    const sockets = await Promise.all(Array.from({ length: held }, () => openSocket(port)));
    const answers = sockets.map((socket) => {
      const answer = { text: "" };
      socket.on("data", (chunk: Buffer) => {
        answer.text += chunk.toString("latin1");
      });
      return answer;
    });
    for (const socket of sockets) socket.write(head + body.slice(0, -1));
    await sleep(1500);
    const refused = answers.filter((answer) => answer.text.startsWith("HTTP/1.1 503"));
    // 16 MiB holds 16 of them; the rest are refused before their bodies are read.
    expect(refused.length).toBeGreaterThanOrEqual(held - 17);
    expect(refused.length).toBeLessThan(held);
    await expectServed();
    // The held ones, completed, are answered: 200, or 503 past the heavy lane's 16 waiting.
    for (const socket of sockets) if (!socket.destroyed) socket.write(body.slice(-1));
    const settled = () => answers.filter((answer) => /^HTTP\/1\.1 (200|503)/.test(answer.text));
    for (let waited = 0; settled().length < held && waited < 10_000; waited += 100) {
      await sleep(100);
    }
    const statuses = answers.map((answer) => answer.text.slice(0, 12) || "none");
    expect(settled().length, statuses.join(", ")).toBe(held);
    expect(statuses).toContain("HTTP/1.1 200");
    for (const socket of sockets) socket.destroy();
  });

  it("invalid JSON is a 400", async () => {
    const result = await raw("graphql invalid JSON", post("application/json", "{abc"));
    expectAnswer(result, 400);
    expect(JSON.parse(result.body).errors[0].extensions.code).toBe("BAD_REQUEST");
  });

  it.each([
    ["text/plain", "text/plain"],
    ["no content type", undefined],
    ["multipart", "multipart/form-data; boundary=x"],
    ["form", "application/x-www-form-urlencoded"],
  ])("%s is a 415 with a GraphQL error body", async (name, contentType) => {
    const result = await raw(`graphql ${name}`, post(contentType, '{"query":"{ __typename }"}'));
    expectAnswer(result, 415);
    expect(JSON.parse(result.body).errors[0].extensions.code).toBe("UNSUPPORTED_MEDIA_TYPE");
  });

  it.each([
    ["{}", "{}"],
    ["null", "null"],
    ["a JSON string", '"{ __typename }"'],
    ["a __proto__ key", '{"query":"{ __typename }","__proto__":{"a":1}}'],
    ["variables that are not an object", '{"query":"{ __typename }","variables":"x"}'],
  ])("%s is a 400 GraphQL error", async (name, body) => {
    const result = await raw(`graphql body ${name}`, post("application/json", body));
    expectAnswer(result, 400);
    expect(JSON.parse(result.body).errors[0].extensions.code).toBe("BAD_REQUEST");
  });

  it.each([
    ["variables", "%7Bnope"],
    ["extensions", "nope"],
    ["query", "%7B%20__typename%20%C0%AE%7D"],
  ])("GET with malformed %s is a 400 GraphQL error, not a 500", async (name, value) => {
    const query = name === "query" ? "" : "query=%7B__typename%7D&";
    const result = await raw(`graphql GET ${name}`, get(`/graphql?${query}${name}=${value}`));
    expectAnswer(result, 400);
    expect(JSON.parse(result.body).errors[0].extensions.code).toBe("BAD_REQUEST");
  });

  it("an over-deep JSON body is a bounded 400, not a stack overflow", async () => {
    const depth = 100_000;
    const body = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const result = await raw("graphql deeply nested JSON", post("application/json", body));
    expect(result.timedOut).toBe(false);
    expect(result.status).toBe(400);
  });
});

describe("smuggling-shaped framing", () => {
  const head = `POST /graphql HTTP/1.1\r\n${STD}Content-Type: application/json\r\n`;
  const smuggled = `GET ${NORMAL_PATH} HTTP/1.1\r\nHost: x\r\n${KEY}\r\n`;

  it.each([
    [
      "Content-Length and Transfer-Encoding",
      `Content-Length: 4\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    ],
    [
      "Transfer-Encoding then Content-Length",
      `Transfer-Encoding: chunked\r\nContent-Length: 4\r\n\r\n0\r\n\r\n`,
    ],
    ["two different Content-Lengths", "Content-Length: 2\r\nContent-Length: 3\r\n\r\n{}"],
    ["two equal Content-Lengths", "Content-Length: 2\r\nContent-Length: 2\r\n\r\n{}"],
    ["a Content-Length list", "Content-Length: 2, 2\r\n\r\n{}"],
    ["negative Content-Length", "Content-Length: -1\r\n\r\n"],
    ["signed Content-Length", "Content-Length: +2\r\n\r\n{}"],
    ["Content-Length with junk", "Content-Length: 1x\r\n\r\n{}"],
    [
      "Transfer-Encoding: chunked, identity",
      "Transfer-Encoding: chunked, identity\r\n\r\n0\r\n\r\n",
    ],
    ["Transfer-Encoding: gzip", "Transfer-Encoding: gzip\r\n\r\n"],
    ["Transfer-Encoding: xchunked", "Transfer-Encoding: xchunked\r\n\r\n"],
    [
      "two Transfer-Encoding: chunked",
      "Transfer-Encoding: chunked\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n",
    ],
    ["bad chunk size", "Transfer-Encoding: chunked\r\n\r\nzz\r\n{}\r\n0\r\n\r\n"],
    [
      "CL+TE with a request hidden in the body",
      `Content-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n${smuggled}`,
    ],
  ])("%s: 400 and a closed socket, one answer only", async (name, tail) => {
    const result = await raw(`smuggling: ${name}`, `${head}${tail}`);
    expectRefusedAndClosed(result, [400]);
    // Nothing answered for a second, smuggled request.
    expect(result.body.includes("HTTP/1.1 ")).toBe(false);
  });
});

describe("CPU amplification", () => {
  /*
   * math/sum over 10,000 items alternating 1e9999 and 1e-9999: every item is within its
   * limits, but the running total spans 20,000 digits, so each of the 10,000 additions
   * works on a 20,000-digit number before the result is refused ("needs 19999 digits")
   * at the end: ~0.2 s of CPU for one 75 KB REST request. GraphQL multiplies it by the
   * number of operation fields over one list variable (100 allowed: ~17 s for a 99 KB
   * body); here 20 fields. Resolvers are synchronous, so the event loop is blocked for
   * all of it and every other client waits (long enough, and a waiting client even gets
   * a 408: its headers sat unread past HEADERS_TIMEOUT). Threshold: normal requests sent
   * meanwhile must each be answered 200 within 1 s.
   */
  const FIELDS = 20;
  const mixed = Array.from({ length: 10_000 }, (_, i) => (i % 2 ? "1e9999" : "1e-9999"));

  it(`a ${FIELDS}-field GraphQL batch of wide sums does not stall other clients for > 1 s`, async () => {
    const fields = Array.from(
      { length: FIELDS },
      (_, i) => `a${i}: math { sum(numbers: $n) { decimal } }`,
    ).join(" ");
    const body = JSON.stringify({
      query: `query($n: [Decimal!]!) { ${fields} }`,
      variables: { n: mixed },
    });
    let settled = false;
    const batch = httpRequest(port, "/graphql", {
      method: "POST",
      headers: { "x-api-key": TEST_KEY, "content-type": "application/json" },
      body,
      timeoutMs: 40_000,
    }).finally(() => {
      settled = true;
    });
    batch.catch(() => {
      // Awaited below.
    });
    // Normal requests one after another while the batch runs: each waits behind it if the
    // batch blocks the event loop.
    const probes: { status: number; ms: number }[] = [];
    do {
      const probe = await httpRequest(port, NORMAL_PATH, {
        headers: { "x-api-key": TEST_KEY },
        timeoutMs: 40_000,
      });
      probes.push({ status: probe.status, ms: probe.ms });
      if (!settled) await sleep(20);
    } while (!settled && probes.length < 1000);
    const batchResponse = await batch;
    record(`graphql ${FIELDS} wide sums`, batchResponse.ms);
    const worst = Math.max(...probes.map((probe) => probe.ms));
    const statuses = [...new Set(probes.map((probe) => probe.status))].join(", ");
    console.log(
      `cpu amplification: ${Buffer.byteLength(body)} B GraphQL body (${FIELDS} fields) answered ` +
        `${batchResponse.status} in ${batchResponse.ms} ms; ${probes.length} normal requests ` +
        `meanwhile, the slowest took ${worst} ms (statuses ${statuses})`,
    );
    expect(batchResponse.status).toBeLessThan(500);
    expect(probes.map((probe) => probe.status)).toEqual(probes.map(() => 200));
    expect(worst, "a normal request waited behind the batch").toBeLessThan(1000);
    await expectServed();
  }, 60_000);
});

describe("answers Node would write by itself", () => {
  // The request lines are info; the suite logs warnings and errors only.
  beforeAll(() => {
    app.log.level = "info";
  });
  afterAll(() => {
    app.log.level = "warn";
  });

  /** The request line of the answer with request id `id`. */
  async function requestLine(id: string | undefined): Promise<Record<string, unknown>> {
    const deadline = performance.now() + 2000;
    for (;;) {
      for (const line of logLines) {
        const entry = JSON.parse(line) as Record<string, unknown>;
        if (entry.requestId === id && entry.msg === "request") return entry;
      }
      if (performance.now() > deadline) throw new Error(`no request line for ${id}`);
      await sleep(20);
    }
  }

  /** A JSON `{"detail": …}` answer with `status`, its request line, and no `100 Continue`. */
  async function expectJsonAnswer(result: RawResult, status: number, detail: string) {
    expectAnswer(result, status);
    expect(result.headers["content-type"]).toBe("application/json; charset=utf-8");
    const length = Number(result.headers["content-length"]);
    expect(JSON.parse(result.body.slice(0, length))).toEqual({ detail });
    expect(result.body).not.toContain("100 Continue");
    const line = await requestLine(result.headers["x-request-id"]);
    expect(line.status).toBe(status);
    return line;
  }

  it("an Expect other than 100-continue is a JSON 417, logged and counted", async () => {
    const result = await raw("Expect: 200-ok", get(NORMAL_PATH, "Expect: 200-ok\r\n"));
    const line = await expectJsonAnswer(
      result,
      417,
      "Expectation Failed: only 100-continue is supported",
    );
    expect(result.closed).toBe(true);
    expect(line).toMatchObject({ method: "GET", path: "/v1/math/sum", route: "(unmatched)" });
    const metrics = await httpRequest(port, "/metrics", { headers: { "x-api-key": TEST_KEY } });
    expect(metrics.body).toMatch(/http_requests_total\{[^}]*status="417"[^}]*\} [1-9]/);
  });

  it.each([
    ["to an operation path", `CONNECT ${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`, 405, "/v1/math/sum"],
    [
      "to a host",
      "CONNECT 127.0.0.1:9 HTTP/1.1\r\nHost: 127.0.0.1:9\r\n\r\ntunnel?",
      404,
      "(authority)",
    ],
  ])(
    "CONNECT %s is answered as TRACE would be, logged, and closed",
    async (_name, request, status, path) => {
      const result = await raw(`CONNECT answered (${status})`, request);
      expect(result.closed).toBe(true);
      const line = await expectJsonAnswer(
        result,
        status,
        status === 405 ? "Method Not Allowed" : "Not Found",
      );
      if (status === 405) expect(result.headers.allow).toBe("GET, HEAD");
      expect(line).toMatchObject({ method: "CONNECT", path });
      expect(JSON.stringify(line)).not.toContain("127.0.0.1:9");
    },
  );

  it("CONNECT pipelined behind requests is answered after them, in order, then closed", async () => {
    const keepAlive = `GET ${NORMAL_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n${KEY}\r\n`;
    const result = await raw(
      "CONNECT pipelined",
      `${keepAlive}${keepAlive}CONNECT ${NORMAL_PATH} HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\ntunnel?`,
    );
    expect(result.timedOut).toBe(false);
    expect(result.closed).toBe(true);
    expect(result.status).toBe(200);
    const statuses = [...result.body.matchAll(/HTTP\/1\.1 (\d{3})/g)].map((match) => match[1]);
    expect(statuses).toEqual(["200", "405"]);
    expect(result.body.endsWith('{"detail":"Method Not Allowed"}')).toBe(true);
  });

  const expecting = (path: string, extra = "") =>
    `POST ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n${extra}` +
    "Content-Type: application/json\r\nContent-Length: 2\r\nExpect: 100-continue\r\n\r\n";

  it.each([
    ["without a key", "/graphql", "", 401, "Missing API key: send it in the X-API-Key header"],
    ["with a wrong key", "/graphql", "x-api-key: wrong\r\n", 401, "Invalid API key"],
    ["on an unknown path", "/nowhere", KEY, 404, "Not Found"],
    ["on an operation path (wrong method)", "/v1/math/sum", KEY, 405, "Method Not Allowed"],
  ])(
    "Expect: 100-continue %s: the refusal, at once, with no 100 Continue before it",
    async (name, path, extra, status, detail) => {
      // The body is never sent: a refusal must not wait for it.
      const result = await raw(`100-continue ${name}`, expecting(path, extra), { timeoutMs: 3000 });
      expect(result.status, result.body).toBe(status);
      await expectJsonAnswer(result, status, detail);
      expect(result.ms).toBeLessThan(2000);
    },
  );

  it("Expect: 100-continue with a key: 100 Continue once the key passed, then the answer", async () => {
    const socket = await openSocket(port);
    const received: Buffer[] = [];
    socket.on("data", (chunk: Buffer) => received.push(chunk));
    const text = () => Buffer.concat(received).toString("latin1");
    const body = JSON.stringify({ query: '{ math { sum(numbers: ["1", "2"]) { decimal } } }' });
    socket.write(
      `POST /graphql HTTP/1.1\r\n${STD}Content-Type: application/json\r\n` +
        `Content-Length: ${body.length}\r\nExpect: 100-continue\r\n\r\n`,
    );
    const deadline = performance.now() + 3000;
    while (!text().includes("\r\n\r\n") && performance.now() < deadline) await sleep(10);
    expect(text()).toBe("HTTP/1.1 100 Continue\r\n\r\n");
    socket.write(body);
    while (!socket.destroyed && !text().includes('"decimal"') && performance.now() < deadline) {
      await sleep(10);
    }
    socket.destroy();
    expect(text()).toMatch(/^HTTP\/1\.1 100 Continue\r\n\r\nHTTP\/1\.1 200 OK\r\n/);
    expect(text()).toContain('{"data":{"math":{"sum":{"decimal":"3"}}}}');
    record("100-continue with a key", 0);
  });

  it("an absolute-form target is served by its path, and no log line names its host", async () => {
    const before = logLines.length;
    const result = await raw("absolute-form target", get(`http://evil.example${NORMAL_PATH}`));
    expectAnswer(result, 200);
    expect(JSON.parse(result.body)).toEqual({ result: 3, decimal: "3", count: 2 });
    const line = await requestLine(result.headers["x-request-id"]);
    expect(line).toMatchObject({ path: "/v1/math/sum", route: "/v1/math/sum", status: 200 });
    // The wrong method on it is the path's 405, as in origin form.
    const trace = await raw(
      "absolute-form TRACE",
      `TRACE http://evil.example${NORMAL_PATH} HTTP/1.1\r\n${STD}\r\n`,
    );
    await expectJsonAnswer(trace, 405, "Method Not Allowed");
    expect(trace.headers.allow).toBe("GET, HEAD");
    expect(logLines.slice(before).join("")).not.toContain("evil.example");
  });
});

describe("after everything", () => {
  it("over the whole suite: no response ≥ 500, and every error with a JSON body", () => {
    expect(observed.some((response) => response.status >= 400)).toBe(true);
    expect(ruleBreakers()).toEqual([]);
  });

  it("the server is up, serving, and logged no unexpected fault", async () => {
    await expectServed();
    expect(app.server.listening).toBe(true);
    const faults = logLines.filter((line) => {
      const level = (JSON.parse(line) as { level?: number }).level ?? 0;
      return level >= 50;
    });
    expect(faults).toEqual([]);
  });
});
