/**
 * WORKERS > 1: this process becomes a primary that forks the workers and does no HTTP
 * itself. The workers share the listening socket (node:cluster). Without Redis the
 * primary also keeps the rate-limit counters, so every worker counts against one quota,
 * and it aggregates the workers' metrics for /metrics.
 */
import cluster, { type Worker } from "node:cluster";
import { AggregatorRegistry } from "prom-client";
import { limiters } from "./access/rate-limit.js";
import type { Config } from "./config.js";

/** IPC messages between a worker serving /metrics and the primary. */
export const METRICS_REQUEST = "ucs:metrics-request";
export const METRICS_RESPONSE = "ucs:metrics-response";

function log(message: string, fields: Record<string, unknown> = {}): void {
  process.stdout.write(
    `${JSON.stringify({ level: 30, time: Date.now(), pid: process.pid, role: "primary", ...fields, msg: message })}\n`,
  );
}

/**
 * Forks `config.workers` workers, replaces any that die unexpectedly, and on SIGTERM or
 * SIGINT passes the signal on and exits once every worker has drained.
 */
export function runPrimary(config: Config): void {
  // Workers must accept the key the primary generated or read, not make their own.
  const env = { API_KEYS: config.apiKeys.join(",") };
  if (!config.redisUrl) {
    // Required here: server.ts imports this module in every process, and only a primary
    // keeps the counters (a single process with rate limits off never loads the package).
    const { RateLimiterClusterMaster } = limiters();
    new RateLimiterClusterMaster();
  }
  const aggregator = new AggregatorRegistry();
  let stopping = false;

  const fork = () => {
    const worker = cluster.fork(env);
    worker.on("message", async (message: { type?: string; id?: number }) => {
      if (message?.type !== METRICS_REQUEST) return;
      try {
        const metrics = await aggregator.clusterMetrics();
        worker.send({ type: METRICS_RESPONSE, id: message.id, metrics });
      } catch (error) {
        worker.send({ type: METRICS_RESPONSE, id: message.id, error: String(error) });
      }
    });
    return worker;
  };

  for (let i = 0; i < config.workers; i++) fork();
  log("primary started", { workers: config.workers });

  cluster.on("exit", (worker: Worker, code, signal) => {
    if (stopping) {
      // A worker leaves cluster.workers only after both exit and disconnect: ask each instead.
      if (Object.values(cluster.workers ?? {}).every((w) => !w || w.isDead())) {
        log("all workers stopped");
        process.exit(0);
      }
      return;
    }
    log("worker died; starting another", { workerPid: worker.process.pid, code, signal });
    fork();
  });

  const stop = (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    log("stopping workers", { signal });
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGTERM");
    setTimeout(
      () => {
        log("workers did not stop in time", { timeoutSeconds: config.shutdownTimeoutSeconds });
        process.exit(1);
      },
      (config.shutdownTimeoutSeconds + config.drainDelaySeconds + 2) * 1000,
    ).unref();
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  // Each worker reloads its own operations (reload.ts); new workers load them from disk.
  process.on("SIGHUP", () => {
    log("reloading the workers' operations");
    for (const worker of Object.values(cluster.workers ?? {})) worker?.process.kill("SIGHUP");
  });
}

let nextRequestId = 0;

/**
 * In a worker: the metrics of every worker, aggregated by the primary.
 *
 * @example
 * const text = await clusterMetrics(); // Prometheus exposition format
 */
export function clusterMetrics(timeoutMs = 2000): Promise<string> {
  const id = ++nextRequestId;
  return new Promise((resolve, reject) => {
    const onMessage = (message: {
      type?: string;
      id?: number;
      metrics?: string;
      error?: string;
    }) => {
      if (message?.type !== METRICS_RESPONSE || message.id !== id) return;
      clearTimeout(timer);
      process.off("message", onMessage);
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.metrics ?? "");
    };
    const timer = setTimeout(() => {
      process.off("message", onMessage);
      reject(new Error("the primary did not answer with metrics in time"));
    }, timeoutMs);
    process.on("message", onMessage);
    process.send?.({ type: METRICS_REQUEST, id });
  });
}
