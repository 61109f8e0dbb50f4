/**
 * Raw-socket and node:http clients for the abuse tests: every exchange is bounded in
 * time, every socket is tracked so `destroyAll` can end whatever is still open.
 */
import { type IncomingHttpHeaders, request } from "node:http";
import { connect, type Socket } from "node:net";
import { isJsonObject } from "../../scripts/lib/json-body.js";

export const HOST = "127.0.0.1";

const sockets = new Set<Socket>();

/** Destroys every socket opened by this module that is still open. */
export function destroyAll(): void {
  for (const socket of sockets) socket.destroy();
  sockets.clear();
}

/** A response seen by this module's clients, for checks across a whole suite. */
export interface Observed {
  /** The request's first line (raw) or method and path. */
  request: string;
  status: number;
  /** The first response's body (up to its Content-Length when it has one). */
  body: string;
  /** An answer to HEAD: a body is not expected. */
  head: boolean;
}

/** Every response that arrived with a status, in order. */
export const observed: Observed[] = [];

/**
 * The responses that break the two rules every answer keeps: no status ≥ 500, and every
 * error (status ≥ 400, HEAD aside) with a JSON document as its body.
 *
 * @example
 * expect(ruleBreakers()).toEqual([]);
 */
export function ruleBreakers(): string[] {
  const broken: string[] = [];
  for (const { request, status, body, head } of observed) {
    if (status >= 500) broken.push(`${status} for ${request}`);
    if (status >= 400 && !head && !isJsonObject(body)) {
      broken.push(
        `${status} without a JSON body for ${request}: ${JSON.stringify(body.slice(0, 80))}`,
      );
    }
  }
  return broken;
}

export const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/** What came back on a raw connection. */
export interface RawResult {
  /** Status of the first response, if one arrived. */
  status?: number;
  /** Header names lower-cased; repeated headers joined with ", ". */
  headers: Record<string, string>;
  /** Bytes after the first response's head (with `Connection: close`: its whole body). */
  body: string;
  /** The server closed (or reset) the connection before the time limit. */
  closed: boolean;
  /** A socket error (ECONNRESET, EPIPE…), if any. */
  error?: string;
  /** The time limit passed with the connection still open. */
  timedOut: boolean;
  /** Milliseconds from connecting to the close (or the time limit). */
  ms: number;
  /** Milliseconds from connecting to the first response byte, if any. */
  firstByteMs?: number;
}

export interface RawOptions {
  /** Give up (and report `timedOut`) after this long. */
  timeoutMs?: number;
  /** Bytes per write; writing stops as soon as the server answers or closes. */
  chunkSize?: number;
  /** Pause between chunks (slow clients). */
  chunkDelayMs?: number;
  /** Bytes written at once before the chunked writing starts (a head sent in full). */
  fastBytes?: number;
}

function parse(raw: Buffer): Pick<RawResult, "status" | "headers" | "body"> {
  const text = raw.toString("latin1");
  const end = text.indexOf("\r\n\r\n");
  const head = end === -1 ? text : text.slice(0, end);
  const [statusLine = "", ...lines] = head.split("\r\n");
  const match = /^HTTP\/1\.[01] (\d{3})/.exec(statusLine);
  const headers: Record<string, string> = {};
  for (const line of lines) {
    const colon = line.indexOf(":");
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    headers[name] = name in headers ? `${headers[name]}, ${value}` : value;
  }
  return {
    status: match ? Number(match[1]) : undefined,
    headers,
    body: end === -1 ? "" : text.slice(end + 4),
  };
}

/**
 * Opens a connection to `port`, writes `data` (in chunks, stopping once the server
 * answers or closes), and collects everything until the server closes the connection or
 * `timeoutMs` passes. Well-formed requests should carry `Connection: close`, so a
 * finished exchange ends with a close.
 */
export function rawExchange(
  port: number,
  data: string | Buffer,
  { timeoutMs = 5000, chunkSize = 64 * 1024, chunkDelayMs = 0, fastBytes = 0 }: RawOptions = {},
): Promise<RawResult> {
  const bytes = typeof data === "string" ? Buffer.from(data, "latin1") : data;
  return new Promise((resolve) => {
    const started = performance.now();
    const received: Buffer[] = [];
    let firstByteMs: number | undefined;
    let error: string | undefined;
    let finished = false;
    const socket = connect(port, HOST);
    sockets.add(socket);
    const finish = (closed: boolean) => {
      if (finished) return;
      finished = true;
      clearTimeout(timer);
      socket.destroy();
      sockets.delete(socket);
      const parsed = parse(Buffer.concat(received));
      if (parsed.status !== undefined) {
        const request = bytes.subarray(0, bytes.indexOf(13)).toString("latin1").slice(0, 120);
        const length = Number(parsed.headers["content-length"]);
        observed.push({
          request,
          status: parsed.status,
          body: Number.isInteger(length) ? parsed.body.slice(0, length) : parsed.body,
          head: request.startsWith("HEAD "),
        });
      }
      resolve({
        ...parsed,
        closed,
        timedOut: !closed,
        ms: Math.round(performance.now() - started),
        ...(error ? { error } : {}),
        ...(firstByteMs !== undefined ? { firstByteMs } : {}),
      });
    };
    const timer = setTimeout(() => finish(false), timeoutMs);
    socket.on("data", (chunk: Buffer) => {
      firstByteMs ??= Math.round(performance.now() - started);
      received.push(chunk);
    });
    socket.on("error", (err: NodeJS.ErrnoException) => {
      error ??= err.code ?? err.message;
    });
    socket.on("close", () => finish(true));
    socket.on("connect", async () => {
      if (fastBytes > 0) socket.write(bytes.subarray(0, fastBytes));
      for (let offset = fastBytes; offset < bytes.length; offset += chunkSize) {
        if (finished || socket.destroyed || received.length > 0) return;
        if (chunkDelayMs > 0 && offset > 0) await sleep(chunkDelayMs);
        if (finished || socket.destroyed || received.length > 0) return;
        const more = socket.write(bytes.subarray(offset, offset + chunkSize));
        if (!more) {
          await new Promise<void>((drained) => {
            const done = () => {
              socket.off("drain", done);
              socket.off("close", done);
              drained();
            };
            socket.on("drain", done);
            socket.on("close", done);
          });
        }
      }
    });
  });
}

/** Opens a connection and resolves once connected (bounded); the caller owns it. */
export function openSocket(port: number, timeoutMs = 5000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = connect(port, HOST);
    sockets.add(socket);
    socket.on("error", () => {
      // Counted by the caller through `destroyed`; the server may close idle sockets.
    });
    socket.on("close", () => sockets.delete(socket));
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new Error(`connect timed out after ${timeoutMs} ms`));
    }, timeoutMs);
    socket.once("connect", () => {
      clearTimeout(timer);
      resolve(socket);
    });
  });
}

export interface HttpResult {
  status: number;
  headers: IncomingHttpHeaders;
  body: string;
  ms: number;
}

/** One node:http request on a fresh connection, bounded by `timeoutMs`. */
export function httpRequest(
  port: number,
  path: string,
  {
    method = "GET",
    headers = {},
    body,
    timeoutMs = 5000,
  }: {
    method?: string;
    headers?: Record<string, string>;
    body?: string | Buffer;
    timeoutMs?: number;
  } = {},
): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const req = request(
      { host: HOST, port, path, method, headers, agent: false, timeout: timeoutMs },
      (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (chunk: Buffer) => chunks.push(chunk));
        res.on("end", () => {
          const result = {
            status: res.statusCode ?? 0,
            headers: res.headers,
            body: Buffer.concat(chunks).toString("utf8"),
            ms: Math.round(performance.now() - started),
          };
          observed.push({
            request: `${method} ${path.slice(0, 100)}`,
            status: result.status,
            body: result.body,
            head: method === "HEAD",
          });
          resolve(result);
        });
        res.on("error", reject);
      },
    );
    req.on("timeout", () => req.destroy(new Error(`${method} ${path} timed out`)));
    req.on("error", reject);
    req.end(body);
  });
}
