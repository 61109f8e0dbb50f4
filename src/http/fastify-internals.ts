/**
 * The two of fastify's own symbols the per-request path reads, in one place: where the
 * public API would build an object per request, these reach the data fastify already holds.
 * fastify is pinned by the lock file; the tests that read route labels and headers would
 * fail if either moved.
 */
import { createRequire } from "node:module";

export const { kRouteContext, kReplyHeaders } = createRequire(import.meta.url)(
  "fastify/lib/symbols.js",
) as { kRouteContext: symbol; kReplyHeaders: symbol };
