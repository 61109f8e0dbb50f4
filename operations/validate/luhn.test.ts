import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import luhn from "./luhn.js";

const run = (number: string) => execute(luhn, { number }) as { valid: boolean; reason: string };

describe("validate/luhn", () => {
  it.each([
    "79927398713",
    "4111111111111111",
    "4111-1111-1111-1111",
    "378282246310005",
    "6011111111111117",
    "5555 5555 5555 4444",
    "490154203237518", // an IMEI
    "00",
    "18",
  ])("%s is valid", (number) => {
    expect(run(number)).toMatchObject({ valid: true, reason: null });
  });

  it("finds the one right check digit of 7992739871", () => {
    for (let digit = 0; digit <= 9; digit++) {
      expect(run(`7992739871${digit}`).valid).toBe(digit === 3);
    }
  });

  it("catches every single-digit error and every swap of adjacent digits but 09/90", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,30}$/), fc.nat(), fc.nat(9), (payload, at, by) => {
        const answer = execute(luhn, { number: `${payload}0` }) as { expectedCheckDigit: number };
        const valid = `${payload}${answer.expectedCheckDigit}`;
        expect(run(valid).valid).toBe(true);
        const index = at % valid.length;
        const digit = (Number(valid[index]) + 1 + (by % 9)) % 10;
        const changed = `${valid.slice(0, index)}${digit}${valid.slice(index + 1)}`;
        expect(run(changed).valid).toBe(false);
        if (index + 1 < valid.length) {
          const pair = valid.slice(index, index + 2);
          if (pair[0] !== pair[1] && pair !== "09" && pair !== "90") {
            const swapped = `${valid.slice(0, index)}${pair[1]}${pair[0]}${valid.slice(index + 2)}`;
            expect(run(swapped).valid).toBe(false);
          }
        }
      }),
      { seed: 20261127, numRuns: 1000 },
    );
  });

  it.each([
    ["1", "at least two digits"],
    [" - ", "at least two digits"],
    ["4111 1111 1111 111a", "'a' at index 18"],
    ["4111.1111", "'.' at index 4"],
    ["٤١١١", "'٤' at index 0"],
  ])("%j is invalid: %s", (number, reason) => {
    const answer = run(number);
    expect(answer.valid).toBe(false);
    expect(answer.reason).toContain(reason);
  });

  itAnswersItsExamples(luhn);

  it("refuses an empty number and one over 256 characters", () => {
    expect(locTypes(problemsOf(luhn, { number: "" }))).toEqual([[["number"], "string_too_short"]]);
    expect(problemsOf(luhn, { number: "1".repeat(257) }).map((p) => p.type)).toEqual([
      "string_too_long",
    ]);
    expect(run("0".repeat(256)).valid).toBe(true);
  });
});
