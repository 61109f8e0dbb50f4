import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import median from "./median.js";

const run = (numbers: string[]) => execute(median, { numbers }) as { decimal: string };

describe("stats/median", () => {
  itAnswersItsExamples(median);

  it.each([
    [["5"], "5"],
    [["2", "1"], "1.5"],
    [["3", "1", "2"], "2"],
    [["-1", "-3", "-2", "-10"], "-2.5"],
    [["0.1", "0.2"], "0.15"],
    [["1e-9999", "-1e-9999"], "0"],
    [["1e100", "1", "1e-100"], "1"],
    [["2", "2", "2", "3"], "2"],
    [["0.30", "0.3", "0.300"], "0.3"],
    [["7", "1", "7", "1", "4"], "4"],
  ])("median%j = %s", (numbers, expected) => {
    expect(run(numbers).decimal).toBe(expected);
  });

  it("sorts 10,000 numbers in reverse order", () => {
    const numbers = Array.from({ length: 10_000 }, (_, i) => String(10_000 - i));
    expect(run(numbers).decimal).toBe("5000.5");
  });

  it("compares exactly where doubles tie", () => {
    expect(run(["9007199254740993", "9007199254740992", "9007199254740994"]).decimal).toBe(
      "9007199254740993",
    );
  });

  it("refuses an empty list", () => {
    expect(locTypes(problemsOf(median, { numbers: [] }))).toEqual([[["numbers"], "too_short"]]);
  });
});
