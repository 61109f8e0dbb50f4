import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import isbn from "./isbn.js";

interface Answer {
  valid: boolean;
  reason: string | null;
  format: string | null;
  isbn10: string | null;
  isbn13: string | null;
  expectedCheckDigit: string | null;
}

const run = (value: string) => execute(isbn, { isbn: value }) as Answer;

describe("validate/isbn", () => {
  it.each([
    ["0306406152", "isbn10", "0306406152", "9780306406157"],
    ["0-306-40615-2", "isbn10", "0306406152", "9780306406157"],
    ["ISBN-10: 0-8044-2957-x", "isbn10", "080442957X", "9780804429573"],
    ["978 0 306 40615 7", "isbn13", "0306406152", "9780306406157"],
    ["ISBN-13: 978-3-16-148410-0", "isbn13", "316148410X", "9783161484100"],
    ["979-10-90636-07-1", "isbn13", null, "9791090636071"],
  ])("%s is a valid %s", (value, format, isbn10, isbn13) => {
    expect(run(value)).toMatchObject({ valid: true, reason: null, format, isbn10, isbn13 });
  });

  it.each([
    ["0306406153", "the check character is 3, but the digits before it call for 2"],
    ["9780306406150", "the check digit is 0, but the digits before it call for 7"],
    ["03064X6152", "only the check character of an ISBN-10 may be X"],
    ["977030640615X", "an ISBN-13 has digits only"],
    ["9770306406157", "starts with 978 or 979, not 977"],
    ["030640615", "10 or 13 digits, not 9"],
    ["0306.406152", "'.' at index 4"],
    ["ISBN: 03064O6152", "'O' at index 11"],
  ])("%s is invalid: %s", (value, reason) => {
    const answer = run(value);
    expect(answer).toMatchObject({ valid: false, isbn10: null, isbn13: null });
    expect(answer.reason).toContain(reason);
  });

  it("converts every ISBN-10 to an ISBN-13 and back", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{9}$/), (payload) => {
        const check = run(`${payload}0`).expectedCheckDigit;
        const ten = run(`${payload}${check}`);
        expect(ten.valid).toBe(true);
        const thirteen = run(ten.isbn13 ?? "");
        expect(thirteen).toMatchObject({ valid: true, isbn10: `${payload}${check}` });
      }),
      { seed: 20261127, numRuns: 500 },
    );
  });

  itAnswersItsExamples(isbn);

  it("refuses an empty ISBN and one over 64 characters", () => {
    expect(locTypes(problemsOf(isbn, { isbn: "" }))).toEqual([[["isbn"], "string_too_short"]]);
    expect(problemsOf(isbn, { isbn: "1".repeat(65) }).map((p) => p.type)).toEqual([
      "string_too_long",
    ]);
  });
});
