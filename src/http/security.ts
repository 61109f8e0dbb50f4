/**
 * Response headers for a JSON API, and the one CORS policy of the whole service.
 */
import { createRequire } from "node:module";
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import { REQUEST_ID_HEADER } from "./observability.js";

/** Pages that set their own policy (docs, GraphiQL) keep it; everything else is JSON. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

// fastify keeps a reply's headers in a plain object under its own symbol; `reply.header()`
// lowercases each name and stores it under a computed key. Set as named properties, always
// in this order, the object keeps one shape for every request.
const { kReplyHeaders } = createRequire(import.meta.url)("fastify/lib/symbols.js") as {
  kReplyHeaders: symbol;
};
if (typeof kReplyHeaders !== "symbol")
  throw new Error("fastify/lib/symbols.js has no kReplyHeaders");

/**
 * Headers every response carries: the request id, `nosniff`, `no-store` and a strict
 * default CSP (a route that chooses its own caching or policy, like the docs, replaces
 * them), no referrer and no framing, and `Connection: close` while `draining()`, so no
 * client sends a request on a socket the server is about to close. Set as the request
 * arrives, in one hook written with a callback: cheaper than inspecting the reply in
 * `onSend`.
 */
export function registerResponseHeaders(app: FastifyInstance, draining: () => boolean): void {
  app.addHook("onRequest", (request, reply, done) => {
    const headers = (reply as unknown as Record<symbol, Record<string, string>>)[kReplyHeaders];
    if (headers === undefined)
      throw new Error("fastify no longer keeps reply headers under kReplyHeaders");
    headers[REQUEST_ID_HEADER] = request.id;
    headers["x-content-type-options"] = "nosniff";
    headers["referrer-policy"] = "no-referrer";
    headers["x-frame-options"] = "DENY";
    headers["cache-control"] = "no-store";
    headers["content-security-policy"] = JSON_CSP;
    if (draining()) headers.connection = "close";
    done();
  });
}

/**
 * The request headers a browser client of any surface sends: the key, the body's type,
 * a request id, and MCP's protocol-version and session headers (the SDK's client sends
 * them on every `POST /mcp`; a preflight that does not allow them fails the call).
 */
export const CORS_ALLOWED_HEADERS = [
  "X-API-Key",
  "Content-Type",
  "X-Request-Id",
  "Accept",
  "Mcp-Protocol-Version",
  "Mcp-Session-Id",
] as const;

/**
 * CORS for the browser origins in `origins` only; none configured means no CORS headers
 * at all. Browsers may send {@link CORS_ALLOWED_HEADERS} and read the rate-limit and
 * request-id headers.
 */
export async function registerCors(
  app: FastifyInstance,
  origins: readonly string[],
): Promise<void> {
  if (origins.length === 0) return;
  await app.register(cors, {
    origin: [...origins],
    methods: ["GET", "HEAD", "POST"],
    allowedHeaders: [...CORS_ALLOWED_HEADERS],
    exposedHeaders: [
      "RateLimit",
      "RateLimit-Policy",
      "Retry-After",
      "X-Request-Id",
      "WWW-Authenticate",
    ],
    credentials: false,
    maxAge: 600,
    strictPreflight: true,
  });
}
