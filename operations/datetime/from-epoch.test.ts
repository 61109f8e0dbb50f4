import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import fromEpoch from "./from-epoch.js";
import toEpoch from "./to-epoch.js";

const run = (input: Record<string, unknown>) =>
  execute(fromEpoch, input) as Record<string, unknown>;

describe("datetime/from-epoch", () => {
  itAnswersItsExamples(fromEpoch);

  it.each([
    ["0", "seconds", "1970-01-01T00:00:00Z"],
    ["-0", "seconds", "1970-01-01T00:00:00Z"],
    ["2147483648", "seconds", "2038-01-19T03:14:08Z"],
    ["1700000000.123456789", "seconds", "2023-11-14T22:13:20.123456789Z"],
    ["1.5e3", "milliseconds", "1970-01-01T00:00:01.5Z"],
    ["-1", "nanoseconds", "1969-12-31T23:59:59.999999999Z"],
    ["1", "microseconds", "1970-01-01T00:00:00.000001Z"],
    ["8640000000000", "seconds", "+275760-09-13T00:00:00Z"],
    ["-8640000000000", "seconds", "-271821-04-20T00:00:00Z"],
  ])("%s %s is %s", (value, unit, instant) => {
    expect(run({ value, unit }).instant).toBe(instant);
  });

  it("goes back to the same value through datetime/to-epoch", () => {
    for (const value of ["1700000000.123456789", "-86400.5", "0", "253402300799"]) {
      const { instant } = run({ value });
      expect((execute(toEpoch, { dateTime: instant }) as { seconds: string }).seconds).toBe(value);
    }
  });

  it.each([
    [{ value: "1.0000000001" }],
    [{ value: "0.5", unit: "nanoseconds" }],
    [{ value: "8640000000000.000000001" }],
    [{ value: "-1e13" }],
    [{ value: "0", timeZone: "Nowhere" }],
  ])("refuses %j with a 422", (input) => {
    expect(locTypes(problemsOf(fromEpoch, input)).map(([, type]) => type)).toEqual(["value_error"]);
  });
});
