import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import difference from "./difference.js";

const run = (input: Record<string, unknown>) =>
  execute(difference, input) as Record<string, unknown>;

describe("datetime/difference", () => {
  itAnswersItsExamples(difference);

  it.each([
    // start, end, largestUnit, duration
    ["2024-01-31", "2024-02-29", "months", "P29D"],
    ["2024-02-29", "2025-02-28", "years", "P11M30D"],
    ["2024-02-29", "2028-02-29", "years", "P4Y"],
    ["2024-01-01", "2024-12-31", "weeks", "P52W1D"],
    ["2024-01-01", "2024-01-01", "auto", "PT0S"],
    ["2024-01-01T10:00", "2024-01-02T09:30", "auto", "PT23H30M"],
    ["2024-01-01T10:00", "2024-01-02T09:30", "days", "PT23H30M"],
    ["2024-01-01T10:00", "2024-02-02T10:00:00.000000001", "months", "P1M1DT0.000000001S"],
    ["2024-01-01T00:00Z", "2024-01-01T01:00+01:00", "auto", "PT0S"],
    [
      "2024-03-31T00:00+01:00[Europe/Berlin]",
      "2024-04-01T00:00+02:00[Europe/Berlin]",
      "hours",
      "PT23H",
    ],
    [
      "2024-03-31T00:00+01:00[Europe/Berlin]",
      "2024-04-01T00:00+02:00[Europe/Berlin]",
      "days",
      "P1D",
    ],
  ])("%s → %s in %s: %s", (start, end, largestUnit, duration) => {
    expect(run({ start, end, largestUnit }).duration).toBe(duration);
  });

  it("counts calendar units of instants in timeZone", () => {
    // In UTC the start is January 31 (no whole month to February 29, 23:00); in Tokyo it is
    // already February 1, 08:00, one month and an hour before March 1, 09:00.
    const input = {
      start: "2024-01-31T23:00:00Z",
      end: "2024-03-01T00:00:00Z",
      largestUnit: "months",
    };
    expect(run(input)).toMatchObject({ duration: "P29DT1H", timeZone: "UTC" });
    expect(run({ ...input, timeZone: "Asia/Tokyo" })).toMatchObject({
      duration: "P1MT1H",
      timeZone: "Asia/Tokyo",
    });
  });

  it("rounds to smallestUnit with roundingMode", () => {
    const input = { start: "2024-01-01", end: "2024-03-20", largestUnit: "months" };
    expect(run({ ...input, smallestUnit: "months" }).duration).toBe("P2M");
    expect(run({ ...input, smallestUnit: "months", roundingMode: "halfExpand" }).duration).toBe(
      "P3M",
    );
  });

  it("gives every unit as a signed whole number", () => {
    expect(run({ start: "2024-01-01T00:00:00.5Z", end: "2023-12-31T22:58:59Z" })).toMatchObject({
      sign: -1,
      hours: -1,
      minutes: -1,
      seconds: -1,
      milliseconds: -500,
    });
  });

  it.each([
    [{ start: "2024-01-01", end: "2024-01-01T00:00" }, ["end"]],
    [{ start: "2024-01-01T00:00", end: "2024-01-01T00:00Z" }, ["end"]],
    [{ start: "2024-01-01", end: "2024-02-01", largestUnit: "hours" }, ["largestUnit"]],
    [{ start: "2024-01-01", end: "2024-02-01", timeZone: "UTC" }, ["timeZone"]],
    [
      { start: "2024-01-01T00:00Z", end: "2024-02-01T00:00Z", timeZone: "Moon/Tranquility" },
      ["timeZone"],
    ],
    [{ start: "2024-01-01", end: "2024-02-31" }, ["end"]],
    [{ start: "now", end: "2024-02-01" }, ["start"]],
    [
      { start: "1970-01-01T00:00Z", end: "2200-01-01T00:00Z", largestUnit: "nanoseconds" },
      ["largestUnit"],
    ],
  ])("refuses %j with a 422 at %j", (input, loc) => {
    expect(locTypes(problemsOf(difference, input))).toEqual([[loc, "value_error"]]);
  });

  it("refuses texts over 100 characters", () => {
    expect(locTypes(problemsOf(difference, { start: "2".repeat(101), end: "2024-01-01" }))).toEqual(
      [[["start"], "string_too_long"]],
    );
  });
});
