import { CalculationError, defineOperation, groupDigits, integer, jsonBytes, list, z } from "#kit";

/** Bound on |start| and |end|: far inside the safe-integer range, so `%` and counts are exact. */
const MAX_MAGNITUDE = 1e15;
const MAX_NUMBERS = 10_000;
const MAX_RULES = 10;
const MAX_DIVISOR = 1e9;
const MAX_WORD_LENGTH = 32;
const DEFAULT_RULES = ["3:Fizz", "5:Buzz"];

interface Rule {
  divisor: number;
  word: string;
}

type ParsedRule = { ok: true; rule: Rule } | { ok: false; reason: string };

/**
 * Letters, combining marks, digits, punctuation and symbols, with single spaces inside; never
 * a comma (it separates list items in a URL) nor a control, format or other space character.
 */
const WORD = /^[\p{L}\p{M}\p{N}\p{P}\p{S}]+(?: [\p{L}\p{M}\p{N}\p{P}\p{S}]+)*$/u;
const DISALLOWED_IN_WORD = /[^\p{L}\p{M}\p{N}\p{P}\p{S} ]|,/u;

function describeCharacter(character: string): string {
  const codePoint = character.codePointAt(0) ?? 0;
  const printable = /[\p{L}\p{M}\p{N}\p{P}\p{S}]/u.test(character);
  return printable
    ? `'${character}'`
    : `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`;
}

function checkWord(word: string): string | undefined {
  const length = [...word].length;
  if (length === 0) return "the word after ':' is empty";
  if (length > MAX_WORD_LENGTH) {
    return `the word has ${length} characters; at most ${MAX_WORD_LENGTH} are allowed`;
  }
  const disallowed = DISALLOWED_IN_WORD.exec(word)?.[0];
  if (disallowed !== undefined) {
    return `the word contains ${describeCharacter(disallowed)}, which is not allowed (use letters, digits, punctuation and symbols, no commas)`;
  }
  if (!WORD.test(word)) return "the word may hold single spaces between characters only";
  return undefined;
}

/** Reads one `divisor:word` rule; the first ':' separates the two, so a word may contain ':'. */
function parseRule(text: string): ParsedRule {
  const colon = text.indexOf(":");
  if (colon === -1) {
    return {
      ok: false,
      reason: "a rule is written divisor:word, like 3:Fizz, but this has no ':'",
    };
  }
  const digits = text.slice(0, colon);
  const word = text.slice(colon + 1);
  if (!/^[0-9]+$/.test(digits)) {
    return { ok: false, reason: "the divisor before ':' must be a whole number written in digits" };
  }
  const divisor = Number(digits);
  if (divisor < 1 || divisor > MAX_DIVISOR) {
    return {
      ok: false,
      reason: `the divisor must be between 1 and ${MAX_DIVISOR} (10^9)`,
    };
  }
  const problem = checkWord(word);
  if (problem !== undefined) return { ok: false, reason: problem };
  return { ok: true, rule: { divisor, word } };
}

const ruleParam = z.string().superRefine((text, ctx) => {
  const parsed = parseRule(text);
  if (!parsed.ok) {
    ctx.addIssue({
      code: "custom",
      input: text,
      message: `Value error, ${parsed.reason}`,
      params: { type: "value_error" },
    });
  }
});

function toRule(text: string): Rule {
  const parsed = parseRule(text);
  // Unreachable after validation; a missed check must not compute with a half-read rule.
  if (!parsed.ok) throw new Error(`unvalidated rule '${text}': ${parsed.reason}`);
  return parsed.rule;
}

/** The words of the rules whose bits are set in `mask`, in rule order. */
function wordsOf(mask: number, rules: readonly Rule[]): string {
  let words = "";
  for (let r = 0; r < rules.length; r++) if (mask & (1 << r)) words += (rules[r] as Rule).word;
  return words;
}

/**
 * One item per number from `start` to `end`: the words of every rule whose divisor divides
 * it, else its digits. The words are joined once per set of dividing rules (at most 2^10)
 * and that one string is shared: joined per number, 10,000 items of ten words were 90,000
 * short-lived strings (young-generation collections stalling every other request) that
 * JSON.stringify then had to flatten one by one.
 */
function itemsFor(start: number, end: number, rules: readonly Rule[]): string[] {
  const wordsByMask = new Array<string | undefined>(1 << rules.length);
  const items: string[] = [];
  // Per rule, the numbers left before the next multiple of its divisor: counted down in
  // small integers, where `n % divisor` for each number and rule (n a double past 2^31)
  // took milliseconds per 10,000 numbers of ten rules.
  const left = new Int32Array(rules.length);
  for (let r = 0; r < rules.length; r++) {
    const divisor = (rules[r] as Rule).divisor;
    left[r] = (divisor - (((start % divisor) + divisor) % divisor)) % divisor;
  }
  for (let n = start; n <= end; n++) {
    let mask = 0;
    for (let r = 0; r < rules.length; r++) {
      const steps = left[r] as number;
      if (steps === 0) {
        mask |= 1 << r;
        left[r] = (rules[r] as Rule).divisor - 1;
      } else {
        left[r] = steps - 1;
      }
    }
    if (mask === 0) {
      items.push(String(n));
      continue;
    }
    let words = wordsByMask[mask];
    if (words === undefined) {
      words = wordsOf(mask, rules);
      wordsByMask[mask] = words;
    }
    items.push(words);
  }
  return items;
}

const bound = (description: string) =>
  integer({ min: -MAX_MAGNITUDE, max: MAX_MAGNITUDE, description });

export default defineOperation({
  area: "misc",
  name: "fizzbuzz",
  summary: "FizzBuzz over a range of integers, with configurable rules",
  description: [
    "Plays FizzBuzz for every integer from `start` to `end`, both included: each number divisible " +
      "by one or more rule divisors becomes the words of those rules, concatenated in the order the " +
      "rules are given; any other number is written as its decimal digits (with a `-` sign when " +
      "negative). With the default rules `3:Fizz,5:Buzz`, 15 becomes `FizzBuzz`; with " +
      "`5:Buzz,3:Fizz` it becomes `BuzzFizz`.",
    "Zero is divisible by every divisor, so it gets every word. Negative numbers follow the same " +
      "rule: −3 is `Fizz`, −1 is `-1`.",
    `\`start\` defaults to 1 and \`end\` to 100. Both must lie between −10^15 and 10^15 (a range ` +
      "in which every computation is exact), `end` must be at least `start`, and one request covers " +
      `at most ${groupDigits(MAX_NUMBERS)} numbers (\`end − start + 1 ≤ ${MAX_NUMBERS}\`); ` +
      "otherwise the answer is a 422 located at `end`.",
    `\`rules\` holds 1 to ${MAX_RULES} rules written \`divisor:word\` (repeated or comma-separated: ` +
      "`rules=3:Fizz&rules=5:Buzz` or `rules=3:Fizz,5:Buzz`). The divisor is a whole number from 1 " +
      `to 10^9; the word has 1 to ${MAX_WORD_LENGTH} characters: letters, digits, punctuation and ` +
      "symbols, with single spaces between them, but no comma and no control characters. Only the " +
      "first `:` separates divisor and word. A malformed rule is a 422 located at its index.",
  ].join("\n\n"),
  input: z.object({
    start: bound("First number of the range (default 1), from −10^15 to 10^15.").default(1),
    end: bound("Last number of the range, included (default 100), from −10^15 to 10^15.").default(
      100,
    ),
    rules: list(ruleParam, {
      min: 1,
      max: MAX_RULES,
      description: `Rules written \`divisor:word\` (default \`3:Fizz,5:Buzz\`), 1 to ${MAX_RULES} of them.`,
    }).default(DEFAULT_RULES),
  }),
  output: z.object({
    start: z.int().describe("First number of the range."),
    end: z.int().describe("Last number of the range."),
    count: z.int().describe("How many numbers the range holds: `end − start + 1`."),
    items: z
      .array(z.string())
      .describe("One string per number from `start` to `end`: its words, or its digits."),
    rules: z
      .array(
        z.object({
          divisor: z.int().describe("The divisor."),
          word: z.string().describe("The word for numbers it divides."),
        }),
      )
      .describe("The rules applied, in order."),
  }),
  examples: [
    {
      title: "Classic FizzBuzz from 1 to 15",
      input: { start: 1, end: 15 },
      output: {
        start: 1,
        end: 15,
        count: 15,
        items: [
          "1",
          "2",
          "Fizz",
          "4",
          "Buzz",
          "Fizz",
          "7",
          "8",
          "Fizz",
          "Buzz",
          "11",
          "Fizz",
          "13",
          "14",
          "FizzBuzz",
        ],
        rules: [
          { divisor: 3, word: "Fizz" },
          { divisor: 5, word: "Buzz" },
        ],
      },
    },
    {
      title: "Words follow rule order: 15 is BuzzFizz",
      input: { start: 13, end: 15, rules: ["5:Buzz", "3:Fizz"] },
      output: {
        start: 13,
        end: 15,
        count: 3,
        items: ["13", "14", "BuzzFizz"],
        rules: [
          { divisor: 5, word: "Buzz" },
          { divisor: 3, word: "Fizz" },
        ],
      },
    },
    {
      title: "Zero and negative numbers, with custom rules",
      input: { start: -3, end: 2, rules: ["2:Foo", "3:Bar"] },
      output: {
        start: -3,
        end: 2,
        count: 6,
        items: ["Bar", "Foo", "-1", "FooBar", "1", "Foo"],
        rules: [
          { divisor: 2, word: "Foo" },
          { divisor: 3, word: "Bar" },
        ],
      },
    },
  ],
  // Every item may carry every word (divisor 1); past the range limit the handler refuses.
  cost: ({ start, end, rules: ruleTexts }) => {
    const count = Math.min(Math.max(0, end - start + 1), MAX_NUMBERS);
    let words = 0;
    for (const text of ruleTexts) words += jsonBytes(text.slice(text.indexOf(":") + 1)) - 2;
    const itemBytes = Math.max(words, String(-MAX_MAGNITUDE).length) + 3;
    return {
      work: count * (ruleTexts.length + 1) * 10,
      bytes: count * itemBytes + ruleTexts.length * 80 + 100,
      loc: ["rules"],
    };
  },
  handler: ({ start, end, rules: ruleTexts }) => {
    if (end < start) {
      throw new CalculationError(`end (${end}) must be greater than or equal to start (${start})`, [
        "end",
      ]);
    }
    const count = end - start + 1;
    if (count > MAX_NUMBERS) {
      throw new CalculationError(
        `the range from ${start} to ${end} holds ${count} numbers; at most ${MAX_NUMBERS} are allowed per request`,
        ["end"],
      );
    }
    const rules = ruleTexts.map(toRule);
    const items = itemsFor(start, end, rules);
    // `+ 0` reports a `-0` sent by a client as plain 0.
    return { start: start + 0, end: end + 0, count, items, rules };
  },
});
