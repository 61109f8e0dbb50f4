/**
 * The benchmark's yardstick: a bare `node:http` server answering every request with the
 * constant body REST `/v1/math/sum?numbers=1,2,3` answers. No routing, no parsing, no
 * logging: what one Node process on this machine can serve at most. Plain JavaScript, run
 * by `node` itself, so nothing (no TypeScript loader) adds to its memory or its start.
 *
 * With WORK_US set, it also keeps the CPU busy that many microseconds per request: a
 * yardstick for what a fixed amount of work per request costs in throughput here.
 *
 * Usage: node bench/raw-server.mjs   (HOST, PORT and WORK_US from the environment)
 */
import { createServer } from "node:http";

const BODY = Buffer.from(JSON.stringify({ result: 6, decimal: "6", count: 3 }));
const HEADERS = {
  "content-type": "application/json; charset=utf-8",
  "content-length": String(BODY.length),
};

const WORK_NS = BigInt(Math.round(Number(process.env.WORK_US || 0) * 1000));

/** Busy for `WORK_NS` nanoseconds: CPU time, as a handler's work would be. */
function work() {
  if (WORK_NS === 0n) return;
  const start = process.hrtime.bigint();
  while (process.hrtime.bigint() - start < WORK_NS);
}

const server = createServer((_request, response) => {
  work();
  response.writeHead(200, HEADERS);
  response.end(BODY);
});
// The same keep-alive policy as the service, so both keep their connections alike.
server.keepAliveTimeout = 65_000;

const host = process.env.HOST || "127.0.0.1";
const port = Number(process.env.PORT || 0);
server.listen(port, host, () => {
  const address = server.address();
  const bound = typeof address === "object" && address ? address.port : port;
  process.stdout.write(`raw server listening on http://${host}:${bound}\n`);
});

const stop = () => server.close(() => process.exit(0));
process.on("SIGTERM", stop);
process.on("SIGINT", stop);
