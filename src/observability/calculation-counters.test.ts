import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "../kit/define.js";
import { NotFoundError } from "../kit/errors.js";
import { countingRunner } from "./calculation-counters.js";
import { createMetrics, type Gateway } from "./metrics.js";

const echo = defineOperation({
  area: "test",
  name: "echo",
  summary: "Echoes, or fails as asked",
  description: "A fixture whose outcome is chosen by its input.",
  input: z.object({ outcome: z.enum(["ok", "not_found", "error"]) }),
  output: z.object({ outcome: z.string() }),
  examples: [],
  handler: ({ outcome }) => {
    if (outcome === "not_found") throw new NotFoundError("nothing");
    if (outcome === "error") throw new Error("fault");
    return { outcome };
  },
});

describe("countingRunner", () => {
  it.each([
    ["rest", { outcome: "ok" }, "ok"],
    ["graphql", { outcome: "not_found" }, "not_found"],
    ["mcp", { outcome: "error" }, "error"],
    ["rest", { outcome: "maybe" }, "invalid"],
    ["rest", {}, "invalid"],
  ] as const)("%s, input %j: counted as %s", async (gateway: Gateway, input, outcome) => {
    const metrics = createMetrics();
    const run = countingRunner(metrics, gateway);
    for (let i = 0; i < 2; i++) {
      try {
        run(echo, input);
      } catch {
        // The outcome is what is counted; the error goes on to the gateway.
      }
    }
    expect((await metrics.calculations.get()).values).toMatchObject([
      { labels: { operation: "test/echo", gateway, outcome }, value: 2 },
    ]);
  });

  it("makes one counter per operation and outcome, on first use", () => {
    const metrics = createMetrics();
    const made: string[] = [];
    const counter = metrics.calculationCounter.bind(metrics);
    metrics.calculationCounter = (labels) => {
      made.push(`${labels.operation} ${labels.outcome}`);
      return counter(labels);
    };
    const run = countingRunner(metrics, "rest");
    for (const outcome of ["ok", "ok", "error", "ok", "error"]) {
      try {
        run(echo, { outcome });
      } catch {}
    }
    expect(made).toEqual(["test/echo ok", "test/echo error"]);
  });
});
