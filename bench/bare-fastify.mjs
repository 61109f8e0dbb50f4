/**
 * The benchmark's framework yardstick: fastify with only what any keyed JSON API needs,
 * answering REST sum's request. An `onRequest` hook checks the API key, the route
 * validates its query string with a JSON schema (fastify's compiled ajv), and the handler
 * adds the numbers as doubles. What the service costs beyond this is the service's own.
 *
 * Usage: node bench/bare-fastify.mjs   (HOST, PORT and API_KEYS from the environment)
 */
import Fastify from "fastify";

const KEY = process.env.API_KEYS || "bench-key";
const app = Fastify({ logger: false, keepAliveTimeout: 65_000 });

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
