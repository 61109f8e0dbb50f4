import {
  arithmeticFields,
  arithmeticResult,
  type Decimals,
  decimals,
  defineOperation,
  Exact,
  exactFromWords,
  ITEM_WORK,
  z,
} from "#kit";

/**
 * decimal.js keeps significant digits in base-10^7 words aligned on the decimal point: a
 * number with exponent `e` has its first word at place 10^(7 × floor(e / 7)), the next one
 * place lower, and so on.
 */
const WORD_DIGITS = 7;
const WORD = 10 ** WORD_DIGITS;

/** Positive remainder, so negative word sums carry downwards correctly. */
const modWord = (value: number) => ((value % WORD) + WORD) % WORD;

/**
 * Carries `columns` (lowest place first) into base-10^7 words in place; answers the carry
 * out of the top, whose sign is the sign of the whole sum.
 */
function carry(columns: Float64Array): number {
  let out = 0;
  for (let i = 0; i < columns.length; i++) {
    const value = (columns[i] ?? 0) + out;
    const word = modWord(value);
    columns[i] = word;
    out = (value - word) / WORD;
  }
  return out;
}

/**
 * The exact sum of `numbers`: their words are added place by place as doubles (10,000
 * words below 10^7 stay far below 2^53, so exactly), then carried once. Linear in the words
 * sent, where adding decimals one by one costs the running total's length each time.
 */
function exactSum(numbers: Decimals): Exact {
  const { exponents, starts, words, signs } = numbers;
  let top = Number.NEGATIVE_INFINITY;
  let bottom = Number.POSITIVE_INFINITY;
  for (let n = 0; n < numbers.length; n++) {
    if (numbers.isZero(n)) continue;
    const first = Math.floor((exponents[n] as number) / WORD_DIGITS);
    const count = (starts[n + 1] as number) - (starts[n] as number);
    if (first > top) top = first;
    if (first - count + 1 < bottom) bottom = first - count + 1;
  }
  if (top < bottom) return new Exact(0);
  // One spare column above the top takes the carry of up to 10,000 numbers.
  const columns = new Float64Array(top - bottom + 2);
  for (let n = 0; n < numbers.length; n++) {
    if (numbers.isZero(n)) continue;
    const sign = signs[n] as number;
    const start = starts[n] as number;
    const first = Math.floor((exponents[n] as number) / WORD_DIGITS) - bottom;
    for (let i = start; i < (starts[n + 1] as number); i++) {
      const column = first - (i - start);
      columns[column] = (columns[column] ?? 0) + sign * (words[i] as number);
    }
  }
  let sign: 1 | -1 = 1;
  if (carry(columns) < 0) {
    // A negative total: |total| is carried again from the negated words.
    for (let i = 0; i < columns.length; i++) columns[i] = -(columns[i] ?? 0);
    columns[columns.length - 1] = (columns[columns.length - 1] ?? 0) + WORD;
    carry(columns);
    sign = -1;
  }
  // The carried columns are already decimal.js's words: trimmed of zero words at both
  // ends, they are the sum, with no digits printed and parsed again.
  let high = columns.length - 1;
  while (high >= 0 && columns[high] === 0) high--;
  if (high < 0) return new Exact(0);
  let low = 0;
  while (columns[low] === 0) low++;
  const sum: number[] = [];
  for (let i = high; i >= low; i--) sum.push(columns[i] as number);
  let topDigits = 1;
  for (let word = columns[high] as number; word >= 10; word /= 10) topDigits++;
  return exactFromWords(sign, WORD_DIGITS * (high + bottom) + topDigits - 1, sum);
}

export default defineOperation({
  area: "math",
  name: "sum",
  summary: "Sum of a list of numbers, exactly",
  description:
    "Adds 1 to 10,000 decimal numbers in arbitrary precision, so `0.1 + 0.2` is exactly `0.3`. " +
    "Send the list as repeated parameters (`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.\n\n" +
    "A result needing more than 10,000 digits in plain notation is refused with a 422.",
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers to add." }),
  }),
  output: z.object({
    ...arithmeticFields,
    count: z.int().describe("How many numbers were added."),
  }),
  examples: [
    {
      title: "Decimal fractions add exactly",
      input: { numbers: ["0.1", "0.2"] },
      output: { result: 0.3, decimal: "0.3", count: 2 },
    },
    {
      title: "Integers beyond 2^53 stay exact",
      input: { numbers: ["9007199254740993", "1"] },
      output: { result: 9007199254740994, decimal: "9007199254740994", count: 2 },
    },
  ],
  // Reading a number and adding its words into the columns is about ITEM_WORK (the one
  // carry over at most 2,860 columns is lost in it); the sum has at most span + 5 digits.
  cost: ({ numbers }) => ({
    work: numbers.length * ITEM_WORK,
    bytes: 2 * numbers.digitSpan() + 64,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => ({
    ...arithmeticResult(exactSum(numbers)),
    count: numbers.length,
  }),
});
