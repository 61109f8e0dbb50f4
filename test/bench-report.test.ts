/** The bench's judgement of its targets (bench/lib/report.ts): a moved yardstick judges nothing. */
import { describe, expect, it } from "vitest";
import type { RoundRecord } from "../bench/lib/report.js";
import { checkTargets, MAX_YARDSTICK_SPREAD, spread, summarise } from "../bench/lib/report.js";
import type { Workload } from "../bench/lib/workload.js";

const workload = (name: string) =>
  ({ name, description: name, calculationsPerRequest: 1 }) as unknown as Workload;

/** Rounds of `target` at these CPU µs per request, its req/s in proportion. */
const rounds = (target: string, cpu: number[]) =>
  cpu.map(
    (us) =>
      ({
        target,
        cpuUsPerRequest: us,
        load: { requestsPerSecond: 1e6 / us, p50Ms: 1, p99Ms: 2, non2xx: 0, errors: 0 },
        rss: { totalMb: 100, maxProcessMb: 100 },
      }) as unknown as RoundRecord,
  );

function judged(bareFastifyCpu: number[]) {
  const names = ["raw", "bare-fastify", "rest-sum"];
  const records = [
    ...rounds("raw", [28, 28, 29]),
    ...rounds("bare-fastify", bareFastifyCpu),
    ...rounds("rest-sum", [50, 50, 51]),
  ];
  const checks = checkTargets(summarise(names.map(workload), records));
  return checks.find((c) => c.target.startsWith("REST sum ≥ 0.7× bare fastify"));
}

describe("a ratio to a yardstick", () => {
  it("is judged when the yardstick held steady between rounds", () => {
    expect(judged([33, 34, 35])).toMatchObject({ pass: false });
    expect(judged([33, 34, 35])?.unjudged).toBeUndefined();
  });

  it(`is not judged when the yardstick moved more than ${MAX_YARDSTICK_SPREAD}× between rounds`, () => {
    expect(judged([33.5, 40, 61])?.unjudged).toMatch(/bare-fastify's CPU per request moved 1\.82×/);
  });

  it("spread is highest over lowest, NaN rounds left out", () => {
    expect(spread([2, Number.NaN, 4, 3])).toBe(2);
    expect(spread([])).toBeNaN();
  });
});

describe("the batch targets", () => {
  const batchWorkload = (name: string, calculations: number) =>
    ({ name, description: name, calculationsPerRequest: calculations }) as unknown as Workload;

  it("judge the mixed batch against REST sum, and show it against REST of its own operations", () => {
    const workloads = [
      batchWorkload("rest-sum", 1),
      batchWorkload("rest-10", 1),
      batchWorkload("graphql-10", 10),
    ];
    const records = [
      ...rounds("rest-sum", [20, 20, 20]),
      ...rounds("rest-10", [40, 40, 40]),
      ...rounds("graphql-10", [100, 100, 100]),
    ];
    const checks = checkTargets(summarise(workloads, records));
    const mixed = checks.filter((c) => c.target.startsWith("GraphQL ten-operation (mixed) batch"));
    expect(mixed).toMatchObject([
      {
        target: expect.stringMatching(/REST sum in/),
        pass: false,
        measured: expect.stringMatching(/^2\.00×/),
      },
      {
        target: expect.stringMatching(/REST of the same ten operations/),
        pass: true,
        information: true,
        measured: expect.stringMatching(/^4\.00×/),
      },
    ]);
    expect(mixed[0]?.information).toBeFalsy();
  });
});

describe("the managed key target (issue 32)", () => {
  const line = (managedCpu: number[], staticCpu: number[]) => {
    const names = ["raw", "rest-sum-static-quota", "rest-sum-managed"];
    const records = [
      ...rounds("raw", [28, 28, 29]),
      ...rounds("rest-sum-static-quota", staticCpu),
      ...rounds("rest-sum-managed", managedCpu),
    ];
    const checks = checkTargets(summarise(names.map(workload), records));
    return checks.filter((c) => c.target.startsWith("managed key CPU/request"));
  };

  it("compares the medians' CPU per request, bound 1.10", () => {
    expect(line([54, 55, 56], [50, 50, 51])).toEqual([
      {
        target: "managed key CPU/request ÷ static key with RATE_LIMIT ≤ 1.10",
        measured: "1.10 (55.0 vs 50.0 µs/request)",
        pass: true,
      },
    ]);
    expect(line([56, 57, 58], [50, 50, 51])).toMatchObject([
      { measured: "1.14 (57.0 vs 50.0 µs/request)", pass: false },
    ]);
  });

  it(`is not judged when the static key's row moved more than ${MAX_YARDSTICK_SPREAD}× between rounds`, () => {
    expect(line([55, 55, 55], [40, 50, 70])[0]?.unjudged).toMatch(
      /rest-sum-static-quota's CPU per request moved 1\.75×/,
    );
  });

  it("is absent unless both rows ran", () => {
    const records = [...rounds("raw", [28]), ...rounds("rest-sum-managed", [55])];
    const checks = checkTargets(summarise(["raw", "rest-sum-managed"].map(workload), records));
    expect(checks.some((c) => c.target.startsWith("managed key"))).toBe(false);
  });
});
