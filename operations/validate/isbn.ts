import { defineOperation, text, z } from "#kit";

const MAX_INPUT_LENGTH = 64;

/** An optional `ISBN`, `ISBN-10` or `ISBN-13` label in front, with a colon or space. */
const LABEL = /^ISBN(?:-1[03])?:?\s*/i;

/**
 * The ISBN-10 check character of nine digits: weights 10 down to 2, modulo 11, `X` for 10.
 *
 * @example
 * isbn10CheckDigit("030640615"); // "2"
 */
export function isbn10CheckDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < 9; i++) sum += (10 - i) * (payload.charCodeAt(i) - 0x30);
  const check = (11 - (sum % 11)) % 11;
  return check === 10 ? "X" : String(check);
}

/**
 * The ISBN-13 (EAN-13) check digit of twelve digits: weights 1 and 3 alternating, modulo 10.
 *
 * @example
 * isbn13CheckDigit("978030640615"); // "7"
 */
export function isbn13CheckDigit(payload: string): string {
  let sum = 0;
  for (let i = 0; i < 12; i++) sum += (i % 2 === 0 ? 1 : 3) * (payload.charCodeAt(i) - 0x30);
  return String((10 - (sum % 10)) % 10);
}

interface IsbnAnswer {
  valid: boolean;
  reason: string | null;
  format: "isbn10" | "isbn13" | null;
  isbn: string;
  checkDigit: string | null;
  expectedCheckDigit: string | null;
  isbn10: string | null;
  isbn13: string | null;
}

function check(input: string): IsbnAnswer {
  const label = LABEL.exec(input)?.[0] ?? "";
  const body = input.slice(label.length);
  const isbn = body.replace(/[ -]/g, "").toUpperCase();
  const answer: IsbnAnswer = {
    valid: false,
    reason: null,
    format: null,
    isbn,
    checkDigit: null,
    expectedCheckDigit: null,
    isbn10: null,
    isbn13: null,
  };
  const bad = body.search(/[^0-9Xx -]/);
  if (bad !== -1) {
    answer.reason = `the character '${String.fromCodePoint(body.codePointAt(bad) ?? 0)}' at index ${label.length + bad} is not a digit, X, a space or a hyphen`;
    return answer;
  }
  if (isbn.length === 10) {
    answer.format = "isbn10";
    if (!/^[0-9]{9}[0-9X]$/.test(isbn)) {
      answer.reason = "only the check character of an ISBN-10 may be X";
      return answer;
    }
    answer.checkDigit = isbn.charAt(9);
    answer.expectedCheckDigit = isbn10CheckDigit(isbn);
    answer.isbn13 = `978${isbn.slice(0, 9)}${isbn13CheckDigit(`978${isbn.slice(0, 9)}`)}`;
  } else if (isbn.length === 13) {
    answer.format = "isbn13";
    if (!/^[0-9]{13}$/.test(isbn)) {
      answer.reason = "an ISBN-13 has digits only";
      return answer;
    }
    if (!isbn.startsWith("978") && !isbn.startsWith("979")) {
      answer.reason = `an ISBN-13 starts with 978 or 979, not ${isbn.slice(0, 3)}`;
      return answer;
    }
    answer.checkDigit = isbn.charAt(12);
    answer.expectedCheckDigit = isbn13CheckDigit(isbn);
    answer.isbn13 = `${isbn.slice(0, 12)}${answer.expectedCheckDigit}`;
    if (isbn.startsWith("978")) {
      answer.isbn10 = `${isbn.slice(3, 12)}${isbn10CheckDigit(isbn.slice(3, 12))}`;
    }
  } else {
    answer.reason = `an ISBN has 10 or 13 digits, not ${isbn.length}`;
    return answer;
  }
  if (answer.checkDigit !== answer.expectedCheckDigit) {
    answer.reason = `the check ${answer.format === "isbn10" ? "character" : "digit"} is ${answer.checkDigit}, but the digits before it call for ${answer.expectedCheckDigit}`;
    // No conversion of an invalid number: it would carry a check digit that looks right.
    answer.isbn10 = null;
    answer.isbn13 = null;
    return answer;
  }
  if (answer.format === "isbn10") answer.isbn10 = isbn;
  answer.valid = true;
  return answer;
}

export default defineOperation({
  area: "validate",
  name: "isbn",
  summary: "Check an ISBN-10 or ISBN-13 and convert between them",
  description: [
    "Checks an International Standard Book Number (ISO 2108) by its check digit: an ISBN-10 " +
      "(nine digits and a check character, weights 10 to 2, modulo 11, `X` standing for 10) or " +
      "an ISBN-13 (an EAN-13 starting with 978 or 979: weights 1 and 3, modulo 10). The format " +
      "follows from the number of digits. Hyphens and spaces are ignored, and so is a leading " +
      "`ISBN`, `ISBN-10` or `ISBN-13` label (`ISBN 978-0-306-40615-7`); a lowercase `x` is read " +
      "as `X`.",
    "`valid` comes with the first `reason` it fails (`null` when valid). A valid ISBN-10 is " +
      "also given as its ISBN-13 (prefix 978, new check digit) and a valid 978 ISBN-13 as its " +
      "ISBN-10; 979 ISBNs have no ISBN-10. `expectedCheckDigit` is the check character the " +
      "other digits call for. The answer is unhyphenated: placing the hyphens needs the " +
      "registration groups' ranges, which are not included. Only the check digit is checked, " +
      `not that the book exists. At most ${MAX_INPUT_LENGTH} characters.`,
  ].join("\n\n"),
  input: z.object({
    isbn: text({
      min: 1,
      max: MAX_INPUT_LENGTH,
      description: "The ISBN-10 or ISBN-13; hyphens, spaces and an `ISBN` label are ignored.",
    }),
  }),
  output: z.object({
    valid: z.boolean().describe("Whether the check digit is right."),
    reason: z.string().nullable().describe("Why not; `null` when valid."),
    format: z
      .enum(["isbn10", "isbn13"])
      .nullable()
      .describe("`isbn10` or `isbn13`, by the number of digits; `null` for any other count."),
    isbn: z.string().describe("The input without label, hyphens and spaces, `x` as `X`."),
    checkDigit: z.string().nullable().describe("The check character given."),
    expectedCheckDigit: z.string().nullable().describe("The check character the digits call for."),
    isbn10: z.string().nullable().describe("The ISBN-10 form, when valid and one exists."),
    isbn13: z.string().nullable().describe("The ISBN-13 form, when valid."),
  }),
  examples: [
    {
      title: "A hyphenated ISBN-13",
      input: { isbn: "978-0-306-40615-7" },
      output: {
        valid: true,
        reason: null,
        format: "isbn13",
        isbn: "9780306406157",
        checkDigit: "7",
        expectedCheckDigit: "7",
        isbn10: "0306406152",
        isbn13: "9780306406157",
      },
    },
    {
      title: "An ISBN-10 with X as check character",
      input: { isbn: "ISBN 0-8044-2957-X" },
      output: {
        valid: true,
        reason: null,
        format: "isbn10",
        isbn: "080442957X",
        checkDigit: "X",
        expectedCheckDigit: "X",
        isbn10: "080442957X",
        isbn13: "9780804429573",
      },
    },
    {
      title: "A wrong check digit",
      input: { isbn: "9780306406158" },
      output: {
        valid: false,
        reason: "the check digit is 8, but the digits before it call for 7",
        format: "isbn13",
        isbn: "9780306406158",
        checkDigit: "8",
        expectedCheckDigit: "7",
        isbn10: null,
        isbn13: null,
      },
    },
  ],
  handler: ({ isbn }) => check(isbn),
});
