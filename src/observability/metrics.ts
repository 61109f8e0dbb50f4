/**
 * Prometheus metrics. One registry per app (tests build many apps in one process).
 * Label values are bounded: route templates, never raw URLs; operation ids, never inputs.
 */
import { Counter, collectDefaultMetrics, Histogram, Registry } from "prom-client";
import type { CalculationOutcome } from "../core/runner.js";

export type Gateway = "rest" | "graphql" | "mcp";

interface CalculationLabels {
  operation: string;
  gateway: Gateway;
  outcome: CalculationOutcome;
}

export interface Metrics {
  registry: Registry;
  httpRequests: Counter<"method" | "route" | "status">;
  httpDuration: Histogram<"method" | "route" | "status">;
  calculations: Counter<"operation" | "gateway" | "outcome">;
  /**
   * A counter of `calculations` for one set of labels, as a plain number handed to
   * prom-client when the metrics are read: prom-client's own `inc()` builds a key from
   * the labels on every call, and this runs for every field of every request. Call it
   * once per set of labels and keep what it returns: each call adds a counter.
   */
  calculationCounter(labels: CalculationLabels): { inc(): void };
  rateLimitRejections: Counter<"policy">;
  rateLimitStoreFailures: Counter;
  logLinesDropped: Counter;
}

/**
 * Creates the registry and every metric of the service.
 *
 * @example
 * const metrics = createMetrics();
 * metrics.calculations.inc({ operation: "math/sum", gateway: "rest", outcome: "ok" });
 */
export function createMetrics(): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const tallies: { labels: CalculationLabels; count: number }[] = [];
  return {
    calculationCounter(labels) {
      const tally = { labels, count: 0 };
      tallies.push(tally);
      return {
        inc() {
          tally.count += 1;
        },
      };
    },
    registry,
    httpRequests: new Counter({
      name: "http_requests_total",
      help: "HTTP requests answered, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      registers: [registry],
    }),
    httpDuration: new Histogram({
      name: "http_request_duration_seconds",
      help: "Time from request to response, by method, route template and status.",
      labelNames: ["method", "route", "status"],
      buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5],
      registers: [registry],
    }),
    calculations: new Counter({
      name: "calculations_total",
      help: "Operations run, by operation, gateway (rest, graphql, mcp) and outcome.",
      labelNames: ["operation", "gateway", "outcome"],
      registers: [registry],
      collect() {
        for (const tally of tallies) {
          if (tally.count === 0) continue;
          this.inc(tally.labels, tally.count);
          tally.count = 0;
        }
      },
    }),
    rateLimitRejections: new Counter({
      name: "rate_limit_rejections_total",
      help: "Requests refused with 429, by policy (per-key, auth-failures).",
      labelNames: ["policy"],
      registers: [registry],
    }),
    rateLimitStoreFailures: new Counter({
      name: "rate_limit_store_failures_total",
      help: "Counter-store (Redis) errors; each let a request through uncounted (fail open).",
      registers: [registry],
    }),
    logLinesDropped: new Counter({
      name: "log_lines_dropped_total",
      help: "Log lines dropped because stdout fell 16 MB behind the log.",
      registers: [registry],
    }),
  };
}
