import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import convert from "./convert-time-zone.js";

const run = (input: Record<string, unknown>) => execute(convert, input) as Record<string, unknown>;

describe("datetime/convert-time-zone", () => {
  itAnswersItsExamples(convert);

  it.each([
    // Winter and summer offsets of one zone.
    ["2024-01-15T12:00:00Z", "Europe/London", "2024-01-15T12:00:00+00:00[Europe/London]"],
    ["2024-07-15T12:00:00Z", "Europe/London", "2024-07-15T13:00:00+01:00[Europe/London]"],
    // A 45-minute offset, and a zone that skipped a whole day (Samoa, 2011-12-30).
    ["2024-07-15T12:00:00Z", "Asia/Kathmandu", "2024-07-15T17:45:00+05:45[Asia/Kathmandu]"],
    ["2011-12-30T10:00:00Z", "Pacific/Apia", "2011-12-31T00:00:00+14:00[Pacific/Apia]"],
    ["2024-07-15T14:00+02:00[Europe/Paris]", "+05:30", "2024-07-15T17:30:00+05:30[+05:30]"],
    ["2024-07-15T12:00:00Z", "utc", "2024-07-15T12:00:00+00:00[UTC]"],
  ])("%s in %s is %s", (dateTime, to, result) => {
    expect(run({ dateTime, to }).result).toBe(result);
  });

  it("resolves a skipped local time by disambiguation", () => {
    // Berlin skips 02:00–03:00 on 2024-03-31.
    const input = { dateTime: "2024-03-31T02:30", from: "Europe/Berlin", to: "UTC" };
    expect(run(input).instant).toBe("2024-03-31T01:30:00Z");
    expect(run({ ...input, disambiguation: "earlier" }).instant).toBe("2024-03-31T00:30:00Z");
    expect(locTypes(problemsOf(convert, { ...input, disambiguation: "reject" }))).toEqual([
      [["dateTime"], "value_error"],
    ]);
  });

  it("names an unknown zone", () => {
    const problems = problemsOf(convert, { dateTime: "2024-01-01T00:00Z", to: "Europe/Atlantis" });
    expect(problems).toEqual([
      expect.objectContaining({ loc: ["to"], msg: expect.stringContaining("'Europe/Atlantis'") }),
    ]);
  });

  it.each([
    [{ dateTime: "2024-01-01T00:00", to: "UTC" }, ["from"]],
    [{ dateTime: "2024-01-01T00:00Z", to: "UTC", from: "UTC" }, ["from"]],
    [{ dateTime: "2024-01-01", to: "UTC" }, ["dateTime"]],
    [{ dateTime: "2024-01-01T00:00", from: "Nowhere/City", to: "UTC" }, ["from"]],
  ])("refuses %j with a 422 at %j", (input, loc) => {
    expect(locTypes(problemsOf(convert, input))).toEqual([[loc, "value_error"]]);
  });
});
