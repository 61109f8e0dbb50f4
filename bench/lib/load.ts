/**
 * One timed load with autocannon against 127.0.0.1, stoppable from outside (Ctrl-C).
 */
import autocannon from "autocannon";
import type { Workload } from "./workload.js";

export interface LoadOptions {
  connections: number;
  seconds: number;
}

export interface LoadResult {
  /** Mean of the per-second request counts (autocannon's `requests.average`). */
  requestsPerSecond: number;
  /** Latency of 2xx answers, ms (autocannon's histogram has 1 ms resolution). */
  p50Ms: number;
  p99Ms: number;
  maxMs: number;
  total: number;
  non2xx: number;
  errors: number;
  timeouts: number;
  durationSeconds: number;
}

let running: autocannon.Instance | undefined;

/** Stops the load in progress, if any (its promise then settles with what it has). */
export function stopLoad(): void {
  running?.stop();
}

/** Runs `workload` against `origin` for `options.seconds`; every connection cycles its requests. */
export function runLoad(
  origin: string,
  workload: Workload,
  options: LoadOptions,
): Promise<LoadResult> {
  if (!/^http:\/\/127\.0\.0\.1:\d+$/.test(origin)) {
    throw new Error(`the benchmark only loads 127.0.0.1, not ${origin}`);
  }
  return new Promise((resolve, reject) => {
    running = autocannon(
      {
        url: origin,
        connections: options.connections,
        pipelining: 1,
        duration: options.seconds,
        timeout: 10,
        requests: workload.requests.map(({ method, path, headers, body }) => ({
          method,
          path,
          headers,
          ...(body === undefined ? {} : { body }),
        })),
      },
      (error: Error | null, result: autocannon.Result) => {
        running = undefined;
        if (error) return reject(error);
        resolve({
          requestsPerSecond: result.requests.average,
          p50Ms: result.latency.p50,
          p99Ms: result.latency.p99,
          maxMs: result.latency.max,
          total: result.requests.total,
          non2xx: result.non2xx,
          errors: result.errors,
          timeouts: result.timeouts,
          durationSeconds: result.duration,
        });
      },
    );
  });
}
