/**
 * Prometheus metrics. One registry per app (tests build many apps in one process).
 * Label values are bounded: route templates, never raw URLs; operation ids, never inputs.
 */
import { Counter, collectDefaultMetrics, type Metric, Registry } from "prom-client";
import type { CalculationOutcome } from "../core/runner.js";
import { answered } from "./idle-collection.js";

export type Gateway = "rest" | "graphql" | "mcp";

interface CalculationLabels {
  operation: string;
  gateway: Gateway;
  outcome: CalculationOutcome;
}

/** Upper bounds of `http_request_duration_seconds`' buckets. */
export const DURATION_BUCKETS = [
  0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5,
] as const;

/** One method, route and status: its request count and duration histogram. */
class Series {
  count = 0;
  sum = 0;
  readonly buckets = new Float64Array(DURATION_BUCKETS.length);
  constructor(
    readonly method: string,
    readonly status: number,
    readonly labels: { method: string; route: string; status: string },
  ) {}
}

/**
 * `http_requests_total` and `http_request_duration_seconds`, tallied per series. A
 * request finds its route's series by the route template (one map lookup) and its
 * method and status among that route's few series; nothing is hashed or allocated per
 * request once a series exists. The figures are handed to the registry when scraped.
 */
export class HttpStats {
  private readonly routes = new Map<string, Series[]>();

  /** Counts one response and observes its duration. */
  record(method: string, route: string, status: number, seconds: number): void {
    let series = this.routes.get(route);
    if (series === undefined) {
      series = [];
      this.routes.set(route, series);
    }
    let found: Series | undefined;
    for (let i = 0; i < series.length; i++) {
      const candidate = series[i] as Series;
      if (candidate.status === status && candidate.method === method) {
        found = candidate;
        break;
      }
    }
    if (found === undefined) {
      found = new Series(method, status, { method, route, status: String(status) });
      series.push(found);
    }
    found.count += 1;
    found.sum += seconds;
    answered.count += 1;
    for (let i = 0; i < DURATION_BUCKETS.length; i++) {
      if (seconds <= (DURATION_BUCKETS[i] as number)) {
        found.buckets[i] = (found.buckets[i] as number) + 1;
        break;
      }
    }
  }

  private *all(): Generator<Series> {
    for (const series of this.routes.values()) yield* series;
  }

  /** The counter, as prom-client's registry reads a metric. */
  counter(): Metric {
    return this.metric(
      "http_requests_total",
      "counter",
      "HTTP requests answered, by method, route template and status.",
      () => [...this.all()].map((s) => ({ labels: s.labels, value: s.count })),
    );
  }

  /** The histogram, as prom-client's registry reads a metric (cumulative buckets). */
  histogram(): Metric {
    const name = "http_request_duration_seconds";
    return this.metric(
      name,
      "histogram",
      "Time from request to response, by method, route template and status.",
      () =>
        [...this.all()].flatMap((s) => {
          let cumulative = 0;
          const values = DURATION_BUCKETS.map((bound, i) => {
            cumulative += s.buckets[i] as number;
            return {
              labels: { ...s.labels, le: bound },
              value: cumulative,
              metricName: `${name}_bucket`,
            };
          });
          return [
            ...values,
            { labels: { ...s.labels, le: "+Inf" }, value: s.count, metricName: `${name}_bucket` },
            { labels: s.labels, value: s.sum, metricName: `${name}_sum` },
            { labels: s.labels, value: s.count, metricName: `${name}_count` },
          ];
        }),
    );
  }

  private metric(
    name: string,
    type: "counter" | "histogram",
    help: string,
    values: () => { labels: Record<string, string | number>; value: number; metricName?: string }[],
  ): Metric {
    return {
      name,
      help,
      type,
      aggregator: "sum",
      get: async () => ({ name, help, type, aggregator: "sum", values: values() }),
      reset: () => this.routes.clear(),
    } as unknown as Metric;
  }
}

export interface Metrics {
  registry: Registry;
  /** HTTP responses: counted and timed by the request log (`RequestLog`). */
  http: HttpStats;
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
  /** New connections refused, and idle ones closed to make room, per bound (http/connections.ts). */
  connectionsRefused: Counter<"reason" | "scope">;
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
  const http = new HttpStats();
  registry.registerMetric(http.counter());
  registry.registerMetric(http.histogram());
  return {
    http,
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
    connectionsRefused: new Counter({
      name: "connections_refused_total",
      help: "Connections past a bound (scope: process, address): refused with 503, or idle ones evicted to make room.",
      labelNames: ["reason", "scope"],
      registers: [registry],
    }),
  };
}
