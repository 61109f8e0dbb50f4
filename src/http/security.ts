/**
 * Response headers for a JSON API, and the one CORS policy of the whole service.
 */
import cors from "@fastify/cors";
import type { FastifyInstance } from "fastify";
import { kReplyHeaders } from "../runtime/internals.js";

/** Pages that set their own policy (docs, GraphiQL) keep it; everything else is JSON. */
const JSON_CSP = "default-src 'none'; frame-ancestors 'none'";

/**
 * The headers every answer starts with: the request id, `nosniff`, `no-store` and a strict
 * default CSP. One object literal, so every answer's headers have one shape.
 */
export function answerHeaders(requestId: string): Record<string, string | number> {
  return {
    "x-content-type-options": "nosniff",
    "referrer-policy": "no-referrer",
    "x-frame-options": "DENY",
    "x-request-id": requestId,
    "cache-control": "no-store",
    "content-security-policy": JSON_CSP,
  };
}

/**
 * Sets {@link answerHeaders} on every reply (a route that chooses its own caching or
 * policy, like the docs, replaces them), and `Connection: close` while `draining()`, so no
 * client sends a request on a socket the server is about to close. Set as the request
 * arrives, in one hook written with a callback: cheaper than inspecting the reply in
 * `onSend`. Registered before any hook that sets a header of its own.
 */
export function registerResponseHeaders(app: FastifyInstance, draining: () => boolean): void {
  app.addHook("onRequest", (request, reply, done) => {
    // Replacing fastify's header object costs less than six calls to `reply.header()`.
    (reply as unknown as Record<symbol, unknown>)[kReplyHeaders] = answerHeaders(request.id);
    if (draining()) reply.header("connection", "close");
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
