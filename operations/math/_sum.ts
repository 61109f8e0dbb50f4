/**
 * The exact sum of a list of decimals, column by column: shared by `math/sum` and the
 * statistics operations (`stats/mean`, `stats/variance`, …).
 */
import { type Decimals, Exact, exactFromWords } from "#kit";

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
export function exactSum(numbers: Decimals): Exact {
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
  return fromColumns(columns, bottom, sign);
}

/**
 * The value whose base-10^7 words are the carried `columns` (lowest first, the first at
 * place 10^(7 × bottom)), with `sign`. The columns are already decimal.js's words: trimmed
 * of zero words at both ends, they are the value, with no digits printed and parsed again.
 */
function fromColumns(columns: Float64Array, bottom: number, sign: 1 | -1): Exact {
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

/**
 * The exact sum of the squares of `numbers`, on their words as {@link exactSum} adds:
 * each product of two words (below 10^14) is split into two words added to their columns,
 * so that 10,000 numbers of 15 words each keep every column far below 2^53. Quadratic in a
 * number's words (at most 15 for 100 digits), linear in the count; no square is built.
 */
export function exactSumOfSquares(numbers: Decimals): Exact {
  const { exponents, starts, words } = numbers;
  let top = Number.NEGATIVE_INFINITY;
  let bottom = Number.POSITIVE_INFINITY;
  for (let n = 0; n < numbers.length; n++) {
    if (numbers.isZero(n)) continue;
    const first = Math.floor((exponents[n] as number) / WORD_DIGITS);
    const count = (starts[n + 1] as number) - (starts[n] as number);
    if (2 * first > top) top = 2 * first;
    if (2 * (first - count + 1) < bottom) bottom = 2 * (first - count + 1);
  }
  if (top < bottom) return new Exact(0);
  // The high half of the top product goes one column up, and a spare column takes the carry.
  const columns = new Float64Array(top - bottom + 3);
  for (let n = 0; n < numbers.length; n++) {
    if (numbers.isZero(n)) continue;
    const start = starts[n] as number;
    const end = starts[n + 1] as number;
    const first = Math.floor((exponents[n] as number) / WORD_DIGITS);
    for (let i = start; i < end; i++) {
      const wi = words[i] as number;
      const ci = first - (i - start);
      for (let j = i; j < end; j++) {
        // Off the diagonal, w_i·w_j appears twice: below 2·10^14, still an exact double.
        const product = wi * (words[j] as number) * (i === j ? 1 : 2);
        const high = Math.floor(product / WORD);
        const column = ci + first - (j - start) - bottom;
        columns[column] = (columns[column] ?? 0) + (product - high * WORD);
        columns[column + 1] = (columns[column + 1] ?? 0) + high;
      }
    }
  }
  carry(columns);
  return fromColumns(columns, bottom, 1);
}
