import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { IBAN_LENGTHS } from "./_iban-lengths.js";
import iban, { mod97 } from "./iban.js";

interface Answer {
  valid: boolean;
  reason: string | null;
  expectedCheckDigits: string | null;
  countryCode: string | null;
}

const run = (value: string) => execute(iban, { iban: value }) as Answer;

describe("validate/iban", () => {
  // The registry's own examples.
  it.each([
    "GB82WEST12345698765432",
    "DE89370400440532013000",
    "FR1420041010050500013M02606",
    "NL91ABNA0417164300",
    "NO9386011117947",
    "BE68539007547034",
    "CH9300762011623852957",
    "MT84MALT011000012345MTLCAST001S",
    "LC55HEMM000100010012001200023015",
    "gb82 west 1234 5698 7654 32",
    "GB82WEST 1234569876 5432",
  ])("%s is valid", (value) => {
    expect(run(value)).toMatchObject({ valid: true, reason: null });
  });

  it.each([
    ["GB82-WEST12345698765432", "'-' at index 4"],
    ["12WEST12345698765432", "two-letter country code"],
    ["XX82WEST12345698765432", "'XX' is not a country of the IBAN registry"],
    ["GBAAWEST12345698765432", "two check digits"],
    ["GB82WEST1234569876543", "an IBAN of GB has 22 characters, not 21"],
    ["GB83WEST12345698765432", "the check digits are 83, but the account's are 82"],
    ["GB82WEST12345698765423", "the check digits are 82, but the account's are"],
    ["G", "two-letter country code"],
  ])("%s is invalid: %s", (value, reason) => {
    const answer = run(value);
    expect(answer.valid).toBe(false);
    expect(answer.reason).toContain(reason);
  });

  it("refuses check digits 01 where ISO 7064 gives 98 (both leave remainder 1)", () => {
    const withNinetyEight = "GB98MIDL07009312345678";
    expect(run(withNinetyEight).valid).toBe(true);
    const withOne = `GB01${withNinetyEight.slice(4)}`;
    expect(mod97(withOne)).toBe(1);
    expect(run(withOne)).toMatchObject({ valid: false, expectedCheckDigits: "98" });
  });

  it("lists the registry's 89 countries, 15 to 34 characters each", () => {
    expect(IBAN_LENGTHS.size).toBe(89);
    for (const [code, length] of IBAN_LENGTHS) {
      expect(code).toMatch(/^[A-Z]{2}$/);
      expect(length).toBeGreaterThanOrEqual(15);
      expect(length).toBeLessThanOrEqual(34);
    }
  });

  it("makes the check digits that validate any BBAN, and catches any changed digit", () => {
    const countries = [...IBAN_LENGTHS];
    fc.assert(
      fc.property(
        fc.constantFrom(...countries),
        fc.array(fc.constantFrom(..."0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZ"), {
          minLength: 30,
          maxLength: 30,
        }),
        fc.nat(),
        ([code, length], characters, at) => {
          const bban = characters.join("").slice(0, length - 4);
          const { expectedCheckDigits } = run(`${code}00${bban}`);
          const valid = `${code}${expectedCheckDigits}${bban}`;
          expect(run(valid)).toMatchObject({ valid: true, countryCode: code });
          // MOD 97-10 catches every substitution of one digit by another (not of a letter,
          // whose two-digit value may collide).
          const digits = [...valid].flatMap((c, i) => (i >= 2 && /[0-9]/.test(c) ? [i] : []));
          const index = digits[at % digits.length] ?? 2;
          const other = valid[index] === "7" ? "8" : "7";
          expect(run(`${valid.slice(0, index)}${other}${valid.slice(index + 1)}`).valid).toBe(
            false,
          );
        },
      ),
      { seed: 20261127, numRuns: 1000 },
    );
  });

  itAnswersItsExamples(iban);

  it("refuses an empty IBAN and one over 64 characters", () => {
    expect(locTypes(problemsOf(iban, { iban: "" }))).toEqual([[["iban"], "string_too_short"]]);
    expect(problemsOf(iban, { iban: "A".repeat(65) }).map((p) => p.type)).toEqual([
      "string_too_long",
    ]);
  });
});
