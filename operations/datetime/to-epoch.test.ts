import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import toEpoch from "./to-epoch.js";

const run = (input: Record<string, unknown>) => execute(toEpoch, input) as Record<string, unknown>;

describe("datetime/to-epoch", () => {
  itAnswersItsExamples(toEpoch);

  it.each([
    [{ dateTime: "1970-01-01T00:00:00Z" }, 0, 0, "0"],
    [{ dateTime: "1970-01-01T01:00:00+01:00" }, 0, 0, "0"],
    [{ dateTime: "2038-01-19T03:14:08Z" }, 2147483648, 2147483648000, "2147483648"],
    [{ dateTime: "1969-12-31T23:59:59.999999999Z" }, -1, -1, "-0.000000001"],
    [{ dateTime: "2024-07-01T00:00[Europe/Paris]" }, 1719784800, 1719784800000, "1719784800"],
    [{ dateTime: "2024-07-01T00:00", timeZone: "-03:00" }, 1719802800, 1719802800000, "1719802800"],
    [{ dateTime: "2001-09-09T01:46:40.123456Z" }, 1000000000, 1000000000123, "1000000000.123456"],
  ])("%j", (input, epochSeconds, epochMilliseconds, seconds) => {
    expect(run(input)).toMatchObject({ epochSeconds, epochMilliseconds, seconds });
  });

  it.each([
    [{ dateTime: "2024-01-01T00:00" }, ["timeZone"]],
    [{ dateTime: "2024-01-01T00:00Z", timeZone: "UTC" }, ["timeZone"]],
    [{ dateTime: "2024-01-01", timeZone: "Nowhere" }, ["timeZone"]],
    [{ dateTime: "+275760-09-13", timeZone: "-01:00" }, ["dateTime"]],
    [{ dateTime: "2024-W01-1", timeZone: "UTC" }, ["dateTime"]],
  ])("refuses %j with a 422 at %j", (input, loc) => {
    expect(locTypes(problemsOf(toEpoch, input))).toEqual([[loc, "value_error"]]);
  });
});
