import { defineOperation, text, z } from "#kit";
import { IBAN_LENGTHS } from "./_iban-lengths.js";

/** Longest accepted input: a 34-character IBAN in print format has 42; room for stray spaces. */
const MAX_INPUT_LENGTH = 64;

/**
 * The remainder modulo 97 of the IBAN read as ISO 7064 MOD 97-10 reads it: the first four
 * characters moved to the end, each letter replaced by its two-digit value (A = 10 … Z = 35).
 * Digit by digit, so no big integer is built.
 *
 * @example
 * mod97("GB82WEST12345698765432"); // 1
 */
export function mod97(iban: string): number {
  const rearranged = iban.slice(4) + iban.slice(0, 4);
  let remainder = 0;
  for (let i = 0; i < rearranged.length; i++) {
    const code = rearranged.charCodeAt(i);
    if (code <= 0x39) remainder = (remainder * 10 + (code - 0x30)) % 97;
    else remainder = (remainder * 100 + (code - 0x37)) % 97;
  }
  return remainder;
}

interface IbanAnswer {
  valid: boolean;
  reason: string | null;
  iban: string;
  formatted: string;
  countryCode: string | null;
  checkDigits: string | null;
  expectedCheckDigits: string | null;
  bban: string | null;
  length: number;
  expectedLength: number | null;
}

/** Checks an IBAN; the first failed rule is the reason. */
function check(input: string): IbanAnswer {
  const iban = input.replaceAll(" ", "").toUpperCase();
  const answer: IbanAnswer = {
    valid: false,
    reason: null,
    iban,
    formatted: iban.replace(/(.{4})(?=.)/g, "$1 "),
    countryCode: null,
    checkDigits: null,
    expectedCheckDigits: null,
    bban: null,
    length: iban.length,
    expectedLength: null,
  };
  const bad = input.search(/[^A-Za-z0-9 ]/);
  if (bad !== -1) {
    answer.reason = `the character '${String.fromCodePoint(input.codePointAt(bad) ?? 0)}' at index ${bad} is not a letter, a digit or a space`;
    return answer;
  }
  if (!/^[A-Z]{2}/.test(iban)) {
    answer.reason = "an IBAN starts with a two-letter country code";
    return answer;
  }
  const countryCode = iban.slice(0, 2);
  const expectedLength = IBAN_LENGTHS.get(countryCode);
  if (expectedLength === undefined) {
    answer.reason = `'${countryCode}' is not a country of the IBAN registry`;
    return answer;
  }
  answer.countryCode = countryCode;
  answer.expectedLength = expectedLength;
  if (!/^[A-Z]{2}[0-9]{2}/.test(iban)) {
    answer.reason = "the country code is followed by two check digits";
    return answer;
  }
  answer.checkDigits = iban.slice(2, 4);
  answer.bban = iban.slice(4);
  if (iban.length !== expectedLength) {
    answer.reason = `an IBAN of ${countryCode} has ${expectedLength} characters, not ${iban.length}`;
    return answer;
  }
  const expected = 98 - mod97(`${countryCode}00${answer.bban}`);
  answer.expectedCheckDigits = String(expected).padStart(2, "0");
  if (answer.checkDigits !== answer.expectedCheckDigits) {
    answer.reason = `the check digits are ${answer.checkDigits}, but the account's are ${answer.expectedCheckDigits} (ISO 7064 MOD 97-10)`;
    return answer;
  }
  answer.valid = true;
  return answer;
}

const nullableString = (description: string) => z.string().nullable().describe(description);

export default defineOperation({
  area: "validate",
  name: "iban",
  summary: "Check an IBAN: country, length and ISO 7064 check digits (ISO 13616)",
  description: [
    "Checks an International Bank Account Number (ISO 13616) and answers `valid` with the " +
      "first `reason` it fails (`null` when valid):",
    "1. only letters, digits and spaces (spaces are dropped, as in the print format " +
      "`GB82 WEST 1234 5698 7654 32`; lowercase letters are read as upper case);\n" +
      "2. a country code of the IBAN registry: the 89 countries SWIFT (the ISO 13616 " +
      "registration authority) lists as of 2025. Territories that use another country's IBAN " +
      "are written with that code (French overseas departments with FR, Åland with FI, Jersey, " +
      "Guernsey and the Isle of Man with GB);\n" +
      "3. two check digits after it;\n" +
      "4. the length the registry gives that country (15 for NO up to 33 for RU);\n" +
      "5. the check digits of ISO 7064 MOD 97-10: moved to the end, letters as 10 to 35, the " +
      "number modulo 97 must be 1. `expectedCheckDigits` gives the right ones (02 to 98; 00, " +
      "01 and 99 are never issued) whenever the length is right.",
    "The national part (`bban`) is not checked against each country's own format or its " +
      "national check digits: a valid answer means well-formed with a matching checksum, not " +
      "that the account exists. The answer also gives the IBAN in electronic format (`iban`), " +
      `in print format (\`formatted\`, groups of four) and its parts. At most ${MAX_INPUT_LENGTH} ` +
      "characters.",
  ].join("\n\n"),
  input: z.object({
    iban: text({
      min: 1,
      max: MAX_INPUT_LENGTH,
      description: "The IBAN, in electronic (`GB82WEST…`) or print format (`GB82 WEST …`).",
    }),
  }),
  output: z.object({
    valid: z.boolean().describe("Whether the IBAN passes every check."),
    reason: nullableString("The first check it fails; `null` when valid."),
    iban: z.string().describe("The input in electronic format: spaces dropped, upper case."),
    formatted: z.string().describe("The print format: groups of four separated by spaces."),
    countryCode: nullableString("The country code, when it is one of the registry."),
    checkDigits: nullableString("The two check digits given, when present."),
    expectedCheckDigits: nullableString(
      "The check digits the country code and BBAN call for, when the length is right.",
    ),
    bban: nullableString("The Basic Bank Account Number: what follows the check digits."),
    length: z.int().describe("Characters in the electronic format."),
    expectedLength: z.int().nullable().describe("The registry's length for the country."),
  }),
  examples: [
    {
      title: "A valid IBAN in print format (the ECBS example)",
      input: { iban: "GB82 WEST 1234 5698 7654 32" },
      output: {
        valid: true,
        reason: null,
        iban: "GB82WEST12345698765432",
        formatted: "GB82 WEST 1234 5698 7654 32",
        countryCode: "GB",
        checkDigits: "82",
        expectedCheckDigits: "82",
        bban: "WEST12345698765432",
        length: 22,
        expectedLength: 22,
      },
    },
    {
      title: "A mistyped digit fails the checksum",
      input: { iban: "DE89370400440532013001" },
      output: {
        valid: false,
        reason: "the check digits are 89, but the account's are 62 (ISO 7064 MOD 97-10)",
        iban: "DE89370400440532013001",
        formatted: "DE89 3704 0044 0532 0130 01",
        countryCode: "DE",
        checkDigits: "89",
        expectedCheckDigits: "62",
        bban: "370400440532013001",
        length: 22,
        expectedLength: 22,
      },
    },
    {
      title: "The wrong length for the country",
      input: { iban: "NO938601111794" },
      output: {
        valid: false,
        reason: "an IBAN of NO has 15 characters, not 14",
        iban: "NO938601111794",
        formatted: "NO93 8601 1117 94",
        countryCode: "NO",
        checkDigits: "93",
        expectedCheckDigits: null,
        bban: "8601111794",
        length: 14,
        expectedLength: 15,
      },
    },
  ],
  handler: ({ iban }) => check(iban),
});
