import { describe, expect, it } from "vitest";
import { CalculationError } from "../../src/kit/errors.js";
import { readDuration, readMoment, readTimeZone, temporalLoaded } from "./_temporal.js";

describe("datetime/_temporal", () => {
  // First in the file: importing the module must not load the polyfill (~6 MB, and ~8 MB more
  // of ICU time-zone data on first use); the first call does.
  it("loads the polyfill on first use, not at import", () => {
    expect(temporalLoaded()).toBe(false);
    readMoment("2024-01-01", "x");
    expect(temporalLoaded()).toBe(true);
  });

  it.each([
    ["2024-03-10", "date"],
    ["2024-03-10T12:30", "date-time"],
    ["2024-03-10 12:30:00", "date-time"],
    ["2024-03-10T12:30:00Z", "instant"],
    ["2024-03-10T12:30:00.5+05:30", "instant"],
    ["2024-03-10T12:30:00+01:00[Europe/Paris]", "zoned"],
    ["2024-03-10T12:30[Europe/Paris]", "zoned"],
  ])("reads %s as a %s", (text, kind) => {
    expect(readMoment(text, "x").kind).toBe(kind);
  });

  it.each([
    "2024-02-30",
    "2024-13-01",
    "yesterday",
    "2024-03-10T25:00",
    "2024-03-10T12:30:00+01:00[Europe/Berlin]x",
    "2024-03-10T12:30:00+09:00[Europe/Paris]",
  ])("refuses %s with a CalculationError at its field", (text) => {
    const read = () => readMoment(text, "start");
    expect(read).toThrow(CalculationError);
    try {
      read();
    } catch (error) {
      expect((error as CalculationError).loc).toEqual(["start"]);
    }
  });

  it("names an unknown zone as written, in brackets or alone", () => {
    expect(() => readMoment("2024-01-01T00:00[Mars/Olympus_Mons]", "start")).toThrow(
      "unknown time zone 'Mars/Olympus_Mons'",
    );
    expect(() => readTimeZone("Europe/Atlantis", "to")).toThrow(
      "unknown time zone 'Europe/Atlantis'",
    );
  });

  it("hints at %2B when a '+' arrived as a space", () => {
    expect(() => readMoment("2024-03-10T12:30:00 05:30", "start")).toThrow("%2B");
    expect(() => readMoment(" 010000-01-01", "start")).toThrow("%2B");
    expect(() => readTimeZone(" 05:30", "to")).toThrow("%2B");
    expect(() => readTimeZone("Mars/Base", "to")).not.toThrow("%2B");
  });

  it.each([
    ["europe/paris", "Europe/Paris"],
    ["UTC", "UTC"],
    ["+05:30", "+05:30"],
    ["Asia/Calcutta", "Asia/Calcutta"],
  ])("reads the zone %s as %s", (id, canonical) => {
    expect(readTimeZone(id, "to")).toBe(canonical);
  });

  it("reads durations and refuses malformed ones", () => {
    expect(readDuration("-P1Y2M3DT4H5M6.5S", "d").toString()).toBe("-P1Y2M3DT4H5M6.5S");
    for (const bad of ["P", "1D", "P1.5Y", "PT", "P1M-1D"]) {
      expect(() => readDuration(bad, "d")).toThrow(CalculationError);
    }
  });
});
