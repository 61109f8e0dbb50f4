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

function judged(fastifyRateLimitCpu: number[], restCpu = [50, 50, 51]) {
  const names = ["raw", "bare-fastify-rate-limit", "rest-sum"];
  const records = [
    ...rounds("raw", [28, 28, 29]),
    ...rounds("bare-fastify-rate-limit", fastifyRateLimitCpu),
    ...rounds("rest-sum", restCpu),
  ];
  const checks = checkTargets(summarise(names.map(workload), records));
  return checks.find((c) =>
    c.target.startsWith("REST sum as shipped ≥ 0.8× bare fastify + @fastify/rate-limit"),
  );
}

describe("a ratio to a yardstick", () => {
  it("is judged when the yardstick held steady between rounds", () => {
    expect(judged([33, 34, 35])).toMatchObject({ pass: false });
    expect(judged([33, 34, 35])?.unjudged).toBeUndefined();
    expect(judged([33, 34, 35], [40, 41, 42])).toMatchObject({
      pass: true,
      measured: expect.stringMatching(/^0\.83×/),
    });
  });

  it(`is not judged when the yardstick moved more than ${MAX_YARDSTICK_SPREAD}× between rounds`, () => {
    expect(judged([33.5, 40, 61])?.unjudged).toMatch(
      /bare-fastify-rate-limit's CPU per request moved 1\.82×/,
    );
  });

  it("spread is highest over lowest, NaN rounds left out", () => {
    expect(spread([2, Number.NaN, 4, 3])).toBe(2);
    expect(spread([])).toBeNaN();
  });
});

describe("issue 33's batch, MCP and idle targets", () => {
  const batchWorkload = (name: string, calculations: number) =>
    ({ name, description: name, calculationsPerRequest: calculations }) as unknown as Workload;

  const checks = (idle: Record<string, number[]> = {}) =>
    checkTargets(
      summarise(
        [
          batchWorkload("rest-sum", 1),
          batchWorkload("rest-10", 1),
          batchWorkload("graphql-10", 10),
          batchWorkload("graphql-10-sum", 10),
          batchWorkload("mcp-sum", 1),
        ],
        [
          ...rounds("rest-sum", [20, 20, 20]),
          ...rounds("rest-10", [40, 40, 40]),
          ...rounds("graphql-10", [100, 100, 100]),
          ...rounds("graphql-10-sum", [50, 50, 50]),
          ...rounds("mcp-sum", [50, 50, 50]),
        ],
      ),
      idle,
    );

  it("judge the mixed batch against rest-10, and ten sums against REST sum", () => {
    expect(checks().filter((c) => c.target.startsWith("GraphQL"))).toMatchObject([
      {
        target: expect.stringMatching(/ten-operation batch ≥ 3× REST of the same ten/),
        pass: true,
        measured: expect.stringMatching(/^4\.00×/),
      },
      {
        target: expect.stringMatching(/ten aliased sums ≥ 5× REST sum/),
        pass: false,
        measured: expect.stringMatching(/^4\.00×/),
      },
    ]);
  });

  it("leave a ratio between two service rows unjudged when either moved more than 1.4×", () => {
    const moved = checkTargets(
      summarise(
        [batchWorkload("rest-10", 1), batchWorkload("graphql-10", 10)],
        [...rounds("rest-10", [40, 40, 40]), ...rounds("graphql-10", [100, 150, 160])],
      ),
    ).find((c) => c.target.startsWith("GraphQL ten-operation"));
    expect(moved?.unjudged).toMatch(/graphql-10's CPU per request moved 1\.60×/);
    expect(checks().every((c) => c.unjudged === undefined)).toBe(true);
  });

  it("judge MCP's CPU per request against REST sum's, bound 2×", () => {
    expect(checks().find((c) => c.target.startsWith("MCP"))).toMatchObject({
      pass: false,
      measured: "2.50× (50.0 vs 20.0 µs/request)",
    });
  });

  it("judge the service's idle RSS, bound 90 MB, when it was measured", () => {
    const idle = (mb: number) => checks({ service: [mb] }).find((c) => c.target.startsWith("idle"));
    expect(idle(89.9)).toMatchObject({ pass: true, measured: "89.9 MB" });
    expect(idle(102.6)).toMatchObject({ pass: false });
    expect(checks().some((c) => c.target.startsWith("idle"))).toBe(false);
  });
});

describe("the managed key target (issue 32)", () => {
  const line = (managedCpu: number[], staticCpu: number[]) => {
    const names = ["raw", "rest-sum", "rest-sum-managed"];
    const records = [
      ...rounds("raw", [28, 28, 29]),
      ...rounds("rest-sum", staticCpu),
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
      /rest-sum's CPU per request moved 1\.75×/,
    );
  });

  it("is absent unless both rows ran", () => {
    const records = [...rounds("raw", [28]), ...rounds("rest-sum-managed", [55])];
    const checks = checkTargets(summarise(["raw", "rest-sum-managed"].map(workload), records));
    expect(checks.some((c) => c.target.startsWith("managed key"))).toBe(false);
  });
});
