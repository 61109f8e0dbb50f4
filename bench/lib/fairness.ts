/**
 * The "cheap client beside costly clients" row: 4 connections loop the costliest legal
 * request of every operation while one connection sends a cheap `math/sum` and measures
 * its latency. It shows whether expensive requests starve everyone else.
 */
import autocannon from "autocannon";
import { pathOf } from "../../src/core/path.js";
import type { AnyOperation } from "../../src/kit/define.js";
import { API_KEY, SUM_PATH } from "./workload.js";

export const FAIRNESS_TARGET = "cheap-beside-costly";
export const COSTLY_CONNECTIONS = 4;

/**
 * The most expensive input the contract allows, per operation (by measurement: list
 * limits filled, widest digits, longest text). Operations not named here send their first
 * example: none of them grows with its input.
 */
const COSTLIEST: Record<string, Record<string, unknown>> = {
  "math/sum": { numbers: Array.from({ length: 10_000 }, (_, i) => `${(i * 7919) % 100_000}.125`) },
  "stats/product": { numbers: [...Array(3333).fill(["1.5", "-2", "0.5"]).flat(), "1"] },
  "stats/range": { numbers: Array.from({ length: 10_000 }, (_, i) => `${i}.5e${i % 100}`) },
  "math/nth-root": { number: "2", degree: 1000, precision: 100 },
  "ip/supernet": {
    networks: Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`),
  },
  // Every word starts a phrase of the word list, so each is looked up at every length.
  "text/sentiment": { text: "does not ".repeat(1111) },
  // The longest password taken, of words, names, dates, keyboard runs and l33t: the
  // slowest of the inputs tried (its dictionary matching and l33t readings).
  "misc/password-strength": {
    password: "P@ssw0rd!1990qwertyJohnSmith$$abc123Tr0ub4dor&3correcthorse!!!!!",
  },
  "misc/fizzbuzz": {
    start: 1,
    end: 10_000,
    rules: Array.from(
      { length: 10 },
      (_, i) => `${i + 1}:${String.fromCharCode(65 + i).repeat(32)}`,
    ),
  },
};

export interface FairnessResult {
  cheapP50Ms: number;
  cheapP99Ms: number;
  cheapMaxMs: number;
  cheapRequests: number;
  costlyRequestsPerSecond: number;
  non2xx: number;
  errors: number;
}

/** Lists comma-separated: repeated `numbers=` would pass the 128 KB header limit (431). */
function compactQuery(input: Record<string, unknown>): string {
  return Object.entries(input)
    .map(([name, value]) =>
      Array.isArray(value)
        ? `${name}=${value.map((item) => encodeURIComponent(String(item))).join(",")}`
        : `${name}=${encodeURIComponent(String(value))}`,
    )
    .join("&");
}

/** One GET per operation, each with its costliest input. */
export function costlyPaths(operations: readonly AnyOperation[]): string[] {
  return operations.map((operation) => {
    const input =
      COSTLIEST[`${operation.area}/${operation.name}`] ?? operation.examples[0]?.input ?? {};
    const query = compactQuery(input);
    return `${pathOf(operation)}${query ? `?${query}` : ""}`;
  });
}

function load(origin: string, connections: number, paths: string[], seconds: number) {
  return new Promise<autocannon.Result>((resolve, reject) => {
    autocannon(
      {
        url: origin,
        connections,
        pipelining: 1,
        duration: seconds,
        timeout: 10,
        requests: paths.map((path) => ({ method: "GET", path, headers: { "x-api-key": API_KEY } })),
      },
      (error: Error | null, result: autocannon.Result) => (error ? reject(error) : resolve(result)),
    );
  });
}

/** Runs the costly loop and the cheap client side by side for `seconds`. */
export async function measureFairness(
  origin: string,
  operations: readonly AnyOperation[],
  seconds: number,
): Promise<FairnessResult> {
  const [costly, cheap] = await Promise.all([
    load(origin, COSTLY_CONNECTIONS, costlyPaths(operations), seconds),
    load(origin, 1, [SUM_PATH], seconds),
  ]);
  return {
    cheapP50Ms: cheap.latency.p50,
    cheapP99Ms: cheap.latency.p99,
    cheapMaxMs: cheap.latency.max,
    cheapRequests: cheap.requests.total,
    costlyRequestsPerSecond: costly.requests.average,
    non2xx: costly.non2xx + cheap.non2xx,
    errors: costly.errors + cheap.errors,
  };
}
