import { defineOperation, text, z } from "#kit";

const MAX_INPUT_LENGTH = 256;

/**
 * The Luhn sum of `digits` (ASCII digits) taken as a payload whose check digit comes next:
 * every second digit from the right, starting with the rightmost, doubled.
 *
 * @example
 * luhnCheckDigit("7992739871"); // 3
 */
export function luhnCheckDigit(payload: string): number {
  let sum = 0;
  for (let i = payload.length - 1, double = true; i >= 0; i--, double = !double) {
    let digit = payload.charCodeAt(i) - 0x30;
    if (double) {
      digit *= 2;
      if (digit > 9) digit -= 9;
    }
    sum += digit;
  }
  return (10 - (sum % 10)) % 10;
}

interface LuhnAnswer {
  valid: boolean;
  reason: string | null;
  digits: string;
  checkDigit: number | null;
  expectedCheckDigit: number | null;
}

function check(input: string): LuhnAnswer {
  const bad = input.search(/[^0-9 -]/);
  const digits = input.replace(/[ -]/g, "");
  const answer: LuhnAnswer = {
    valid: false,
    reason: null,
    digits: bad === -1 ? digits : "",
    checkDigit: null,
    expectedCheckDigit: null,
  };
  if (bad !== -1) {
    answer.reason = `the character '${String.fromCodePoint(input.codePointAt(bad) ?? 0)}' at index ${bad} is not a digit, a space or a hyphen`;
    return answer;
  }
  if (digits.length < 2) {
    answer.reason = "a Luhn number has at least two digits: a payload and its check digit";
    return answer;
  }
  answer.checkDigit = digits.charCodeAt(digits.length - 1) - 0x30;
  answer.expectedCheckDigit = luhnCheckDigit(digits.slice(0, -1));
  if (answer.checkDigit !== answer.expectedCheckDigit) {
    answer.reason = `the check digit is ${answer.checkDigit}, but the digits before it call for ${answer.expectedCheckDigit}`;
    return answer;
  }
  answer.valid = true;
  return answer;
}

export default defineOperation({
  area: "validate",
  name: "luhn",
  summary: "Check a number's Luhn (mod 10) check digit: payment cards, IMEI, …",
  description: [
    "Checks the last digit of `number` against the Luhn algorithm (ISO/IEC 7812-1 annex B, " +
      '"mod 10"), used by payment card numbers, IMEI numbers, Canadian social insurance ' +
      "numbers and others. From the rightmost digit leftwards, every second digit before the " +
      "check digit is doubled (9 subtracted when the double passes 9); the check digit brings " +
      "the sum to a multiple of 10.",
    "Spaces and hyphens are ignored (`4539 1488 0343 6467`); any other character makes the " +
      "answer invalid with its index as the reason, and so does a number of fewer than two " +
      "digits. `expectedCheckDigit` is the digit the payload (every digit but the last) calls " +
      "for: to make a check digit for a payload, send the payload followed by any digit. Only " +
      "the checksum is checked: not a card's length, issuer prefix or existence. At most " +
      `${MAX_INPUT_LENGTH} characters.`,
  ].join("\n\n"),
  input: z.object({
    number: text({
      min: 1,
      max: MAX_INPUT_LENGTH,
      description: "The number, check digit last; spaces and hyphens are ignored.",
    }),
  }),
  output: z.object({
    valid: z.boolean().describe("Whether the check digit is right."),
    reason: z.string().nullable().describe("Why not; `null` when valid."),
    digits: z
      .string()
      .describe("The digits read, without spaces and hyphens (empty when refused)."),
    checkDigit: z.int().nullable().describe("The last digit, as given."),
    expectedCheckDigit: z.int().nullable().describe("The check digit the payload calls for."),
  }),
  examples: [
    {
      title: "A valid card number with spaces",
      input: { number: "4539 1488 0343 6467" },
      output: {
        valid: true,
        reason: null,
        digits: "4539148803436467",
        checkDigit: 7,
        expectedCheckDigit: 7,
      },
    },
    {
      title: "A wrong check digit",
      input: { number: "79927398710" },
      output: {
        valid: false,
        reason: "the check digit is 0, but the digits before it call for 3",
        digits: "79927398710",
        checkDigit: 0,
        expectedCheckDigit: 3,
      },
    },
    {
      title: "A letter",
      input: { number: "1234-5678-9X" },
      output: {
        valid: false,
        reason: "the character 'X' at index 11 is not a digit, a space or a hyphen",
        digits: "",
        checkDigit: null,
        expectedCheckDigit: null,
      },
    },
  ],
  handler: ({ number }) => check(number),
});
