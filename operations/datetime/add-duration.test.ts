import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import addDuration from "./add-duration.js";

const run = (input: Record<string, unknown>) =>
  execute(addDuration, input) as Record<string, unknown>;

describe("datetime/add-duration", () => {
  itAnswersItsExamples(addDuration);

  it.each([
    ["2024-02-29", "P1Y", "2025-02-28"],
    ["2024-02-29", "P4Y", "2028-02-29"],
    ["2024-03-31", "-P1M", "2024-02-29"],
    ["2024-01-01", "P2W3D", "2024-01-18"],
    ["2024-01-01", "PT47H", "2024-01-02"],
    ["2024-01-31T23:30", "PT1H", "2024-02-01T00:30:00"],
    ["2024-01-31T10:00:00Z", "P1M", "2024-02-29T10:00:00Z"],
    [
      "2024-03-09T12:00-05:00[America/New_York]",
      "PT24H",
      "2024-03-10T13:00:00-04:00[America/New_York]",
    ],
    ["2024-01-01T00:00:00Z", "PT0.000000001S", "2024-01-01T00:00:00.000000001Z"],
  ])("%s + %s = %s", (start, duration, result) => {
    expect(run({ start, duration }).result).toBe(result);
  });

  it("adds to an instant on the clock of timeZone", () => {
    // 2024-03-09T17:00Z is noon in New York; a day later on that clock is 23 hours later.
    expect(
      run({ start: "2024-03-09T17:00:00Z", duration: "P1D", timeZone: "America/New_York" }).result,
    ).toBe("2024-03-10T16:00:00Z");
    expect(run({ start: "2024-03-09T17:00:00Z", duration: "P1D" }).result).toBe(
      "2024-03-10T17:00:00Z",
    );
  });

  it.each([
    [{ start: "2024-01-31", duration: "P1M", overflow: "reject" }, ["duration"]],
    [{ start: "2024-01-31", duration: "one month" }, ["duration"]],
    [{ start: "2024-01-31", duration: "P1M", timeZone: "UTC" }, ["timeZone"]],
    [{ start: "2024-01-31T00:00Z", duration: "P1M", timeZone: "Nowhere" }, ["timeZone"]],
    [{ start: "+275760-09-13", duration: "P1D" }, ["duration"]],
    [{ start: "2024-01-31", duration: "P999999Y" }, ["duration"]],
    [{ start: "31/01/2024", duration: "P1D" }, ["start"]],
  ])("refuses %j with a 422 at %j", (input, loc) => {
    expect(locTypes(problemsOf(addDuration, input))).toEqual([[loc, "value_error"]]);
  });
});
