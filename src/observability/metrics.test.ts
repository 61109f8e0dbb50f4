import { describe, expect, it } from "vitest";
import { createMetrics, DURATION_BUCKETS, HttpStats } from "./metrics.js";

describe("HttpStats", () => {
  type Value = { labels: Record<string, string | number>; value: number; metricName?: string };
  const values = async (stats: HttpStats, which: "counter" | "histogram") =>
    (await stats[which]().get()).values as Value[];

  it("counts each method, route and status apart, and buckets durations cumulatively", async () => {
    const stats = new HttpStats();
    const recorded: [string, string, number, number][] = [
      ["GET", "/v1/math/sum", 200, 0.0004],
      ["GET", "/v1/math/sum", 200, 0.003],
      ["GET", "/v1/math/sum", 422, 0.002],
      ["POST", "/graphql", 200, 0.02],
      ["GET", "(unmatched)", 404, 9],
    ];
    for (const [method, route, status, seconds] of recorded)
      stats.record(method, route, status, seconds);
    expect(await values(stats, "counter")).toEqual([
      { labels: { method: "GET", route: "/v1/math/sum", status: "200" }, value: 2 },
      { labels: { method: "GET", route: "/v1/math/sum", status: "422" }, value: 1 },
      { labels: { method: "POST", route: "/graphql", status: "200" }, value: 1 },
      { labels: { method: "GET", route: "(unmatched)", status: "404" }, value: 1 },
    ]);
    const histogram = await values(stats, "histogram");
    const sum200 = histogram.filter(
      (v) => v.labels.status === "200" && v.labels.route === "/v1/math/sum",
    );
    const buckets = sum200.filter((v) => v.metricName === "http_request_duration_seconds_bucket");
    expect(buckets.map((v) => [v.labels.le, v.value])).toEqual([
      ...DURATION_BUCKETS.map((bound) => [bound, bound < 0.0005 ? 0 : bound < 0.005 ? 1 : 2]),
      ["+Inf", 2],
    ]);
    expect(
      sum200.find((v) => v.metricName === "http_request_duration_seconds_sum")?.value,
    ).toBeCloseTo(0.0034);
    expect(sum200.find((v) => v.metricName === "http_request_duration_seconds_count")?.value).toBe(
      2,
    );
    // Beyond the last bound: only +Inf counts it.
    const slow = histogram.filter(
      (v) => v.labels.status === "404" && v.metricName?.endsWith("_bucket"),
    );
    expect(slow.map((v) => v.value)).toEqual([...DURATION_BUCKETS.map(() => 0), 1]);
  });
});

describe("calculations_total", () => {
  const values = async (metrics: ReturnType<typeof createMetrics>) =>
    (await metrics.calculations.get()).values.map(({ labels, value }) => ({ labels, value }));

  it("adds what each label set's counter tallied, when read, and only then", async () => {
    const metrics = createMetrics();
    const ok = metrics.calculationCounter({
      operation: "math/sum",
      gateway: "rest",
      outcome: "ok",
    });
    const invalid = metrics.calculationCounter({
      operation: "math/sum",
      gateway: "graphql",
      outcome: "invalid",
    });
    metrics.calculationCounter({ operation: "math/subtract", gateway: "mcp", outcome: "error" });
    for (const [counter, times] of [
      [ok, 3],
      [invalid, 1],
    ] as const)
      for (let i = 0; i < times; i++) counter.inc();
    const first = [
      { labels: { operation: "math/sum", gateway: "rest", outcome: "ok" }, value: 3 },
      { labels: { operation: "math/sum", gateway: "graphql", outcome: "invalid" }, value: 1 },
    ];
    expect(await values(metrics)).toEqual(first);
    // Read again with nothing new: the same totals, not added twice.
    expect(await values(metrics)).toEqual(first);
    ok.inc();
    expect(await values(metrics)).toEqual([{ ...first[0], value: 4 }, first[1]]);
  });

  it("keeps apps apart: each has its own registry", async () => {
    const a = createMetrics();
    const b = createMetrics();
    a.calculationCounter({ operation: "x/y", gateway: "rest", outcome: "ok" }).inc();
    expect((await values(a)).length).toBe(1);
    expect(await values(b)).toEqual([]);
  });
});
