import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { temporal } from "./_temporal.js";
import isoWeek from "./iso-week.js";

const run = (date: string) => execute(isoWeek, { date }) as Record<string, unknown>;

describe("datetime/iso-week", () => {
  itAnswersItsExamples(isoWeek);

  it.each([
    ["2005-01-01", "2004-W53-6"],
    ["2005-01-02", "2004-W53-7"],
    ["2005-12-31", "2005-W52-6"],
    ["2007-01-01", "2007-W01-1"],
    ["2007-12-30", "2007-W52-7"],
    ["2007-12-31", "2008-W01-1"],
    ["2008-12-29", "2009-W01-1"],
    ["2009-12-31", "2009-W53-4"],
    ["2010-01-03", "2009-W53-7"],
    ["0000-01-01", "-000001-W52-6"],
    ["+010000-01-01", "9999-W52-6"],
    ["+010000-01-04", "+010000-W01-2"],
  ])("%s is %s", (date, isoWeekDate) => {
    expect(run(date).isoWeekDate).toBe(isoWeekDate);
  });

  it("counts 52 or 53 weeks as Temporal's calendar does, over four centuries", () => {
    const T = temporal();
    for (let year = 1800; year < 2200; year++) {
      const last = T.PlainDate.from({ year, month: 12, day: 28 }).weekOfYear;
      expect(run(`${year}-06-15`).weeksInYear, String(year)).toBe(
        run(`${year}-06-15`).weekYear === year ? last : undefined,
      );
    }
  });

  it("answers at both ends of Temporal's range", () => {
    expect(run("+275760-09-13")).toMatchObject({ weekYear: 275760, weeksInYear: 52 });
    expect(run("-271821-04-19")).toMatchObject({ weekYear: -271821, dayName: "Monday" });
  });

  it.each(["2023-02-29", "2024-01-01T10:00", "2024-W01-1", "+275760-09-14"])(
    "refuses %s",
    (date) => {
      expect(locTypes(problemsOf(isoWeek, { date }))).toEqual([[["date"], "value_error"]]);
    },
  );
});
