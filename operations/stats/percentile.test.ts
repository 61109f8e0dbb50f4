import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import percentile from "./percentile.js";

interface Answer {
  values: { percentile: string; result: number | null; decimal: string }[];
}
const run = (numbers: string[], percentiles: string[], method = "linear") =>
  (execute(percentile, { numbers, percentiles, method }) as Answer).values.map((v) => v.decimal);

describe("stats/percentile", () => {
  itAnswersItsExamples(percentile);

  it("matches NumPy's default (linear) on a few lists", () => {
    // numpy.percentile(x, q) with the default method.
    expect(run(["1", "2", "3", "4"], ["0", "25", "33.3", "50", "100"])).toEqual([
      "1",
      "1.75",
      "1.999",
      "2.5",
      "4",
    ]);
    expect(run(["10", "-3", "7"], ["10", "90"])).toEqual(["-1", "9.4"]);
    expect(run(["5"], ["0", "37", "100"])).toEqual(["5", "5", "5"]);
    expect(run(["0.1", "0.2"], ["50"])).toEqual(["0.15"]);
  });

  it("is exact in tiny steps between numbers", () => {
    // h = (2 − 1) · 10^-22 / 100
    expect(run(["0", "1"], ["0.0000000000000000000001"])).toEqual([`0.${"0".repeat(23)}1`]);
  });

  it("takes nearest ranks (the Wikipedia examples)", () => {
    const numbers = ["15", "20", "35", "40", "50"];
    expect(run(numbers, ["0", "5", "30", "40", "50", "100"], "nearest-rank")).toEqual([
      "15",
      "15",
      "20",
      "20",
      "35",
      "50",
    ]);
    const ten = ["3", "6", "7", "8", "8", "10", "13", "15", "16", "20"];
    expect(run(ten, ["25", "50", "75", "100"], "nearest-rank")).toEqual(["7", "8", "15", "20"]);
  });

  it("echoes percentiles in plain notation and order", () => {
    const answer = execute(percentile, {
      numbers: ["1", "2"],
      percentiles: ["1e1", "0.50", "100"],
    }) as Answer;
    expect(answer.values.map((v) => v.percentile)).toEqual(["10", "0.5", "100"]);
  });

  it.each([
    [{ numbers: ["1"], percentiles: ["100.0001"] }, [[["percentiles", "0"], "value_error"]]],
    [{ numbers: ["1"], percentiles: ["50", "-1"] }, [[["percentiles", "1"], "value_error"]]],
    [{ numbers: ["1"], percentiles: ["-1e-9"] }, [[["percentiles", "0"], "value_error"]]],
    [{ numbers: ["1"], percentiles: [] }, [[["percentiles"], "too_short"]]],
    [{ numbers: [], percentiles: ["5"] }, [[["numbers"], "too_short"]]],
    [{ numbers: ["1"], percentiles: ["5"], method: "R-7" }, [[["method"], "enum"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(percentile, input))).toEqual(expected);
  });
});
