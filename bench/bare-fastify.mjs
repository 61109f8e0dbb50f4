/**
 * The benchmark's framework yardstick: fastify with only what any keyed JSON API needs,
 * answering REST sum's request. An `onRequest` hook checks the API key, the route
 * validates its query string with a JSON schema (fastify's compiled ajv), and the handler
 * adds the numbers as doubles. What the service costs beyond this is the service's own.
 *
 * With RATE_LIMIT set, the same app also charges each request to its API key with
 * @fastify/rate-limit (in-memory store, RATE_LIMIT per RATE_LIMIT_WINDOW seconds): the
 * framework doing what the service does as shipped, where every key has a quota.
 *
 * With LOG_LEVEL=info it also logs one line per request, as the service does as shipped.
 *
 * Usage: node bench/bare-fastify.mjs   (HOST, PORT, API_KEYS, RATE_LIMIT,
 *        RATE_LIMIT_WINDOW and LOG_LEVEL from the environment)
 */
import Fastify, { LogController } from "fastify";

const KEY = process.env.API_KEYS || "bench-key";
// With LOG_LEVEL=info, one pino line per answered request, as the service logs as shipped:
// fastify's log controller with its two request lines ("incoming", "completed") made one.
class OneLinePerRequest extends LogController {
  incomingRequest() {}
  requestCompleted(error, request, reply) {
    const fields = { method: request.method, url: request.url, status: reply.statusCode };
    if (error) reply.log.error({ ...fields, err: error }, "request");
    else reply.log.info({ ...fields, durationMs: reply.elapsedTime }, "request");
  }
}
const logged = process.env.LOG_LEVEL === "info";
const app = Fastify({
  logger: logged ? { level: "info" } : false,
  ...(logged ? { logController: new OneLinePerRequest() } : {}),
  keepAliveTimeout: 65_000,
});

const limit = Number(process.env.RATE_LIMIT || 0);
if (limit > 0) {
  const { default: rateLimit } = await import("@fastify/rate-limit");
  await app.register(rateLimit, {
    max: limit,
    timeWindow: Number(process.env.RATE_LIMIT_WINDOW || 60) * 1000,
    // Keyed by API key, as the service's quota is; an absent key shares one bucket.
    keyGenerator: (request) => request.headers["x-api-key"] ?? "",
  });
}

function authenticate(request, reply, done) {
  if (request.headers["x-api-key"] !== KEY) {
    reply.code(401).send({ detail: "Invalid API key" });
    return;
  }
  done();
}

app.get(
  "/v1/math/sum",
  {
    onRequest: authenticate,
    schema: {
      querystring: {
        type: "object",
        properties: { numbers: { type: "string", pattern: "^[-+0-9.eE,]+$", maxLength: 100000 } },
        required: ["numbers"],
        additionalProperties: false,
      },
    },
  },
  (request) => {
    const numbers = request.query.numbers.split(",");
    let total = 0;
    for (const text of numbers) total += Number(text);
    return { result: total, decimal: String(total), count: numbers.length };
  },
);
app.get("/health", () => ({ status: "ok" }));

const stop = () => app.close().then(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);

await app.listen({ host: process.env.HOST || "127.0.0.1", port: Number(process.env.PORT || 0) });
