import {
  arithmeticFields,
  arithmeticResult,
  CalculationError,
  type Decimals,
  decimals,
  defineOperation,
  Exact,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  z,
} from "#kit";

/**
 * A nonzero factor as `±(2^twos × 5^fives × rest) × 10^exponent`, with `rest` coprime to 10.
 * Keeping the 2s and 5s apart makes the digit count of a product predictable: a product of
 * numbers coprime to 10 has no trailing zeros, so its length is bounded below by its factors'.
 * `rest` is a double when the factor has at most 14 significant digits (exact below 2^53).
 */
interface SplitFactor {
  negative: boolean;
  rest: number | bigint;
  restDigits: number;
  twos: number;
  fives: number;
  exponent: number;
}

// Powers 5^64, 5^32, …, 5^1: strip fives a block at a time rather than one division each.
const FIVE_BLOCKS = [64, 32, 16, 8, 4, 2, 1].map((k) => ({ k, power: 5n ** BigInt(k) }));

/** decimal.js keeps significant digits in base-10^7 words: `d[0]` has 1 to 7 digits, the rest 7. */
const WORD_DIGITS = 7;
const WORD = 10 ** WORD_DIGITS;

/** Digits of a small integer, without building a string. */
function digitCount(n: number): number {
  let digits = 1;
  for (let bound = 10; n >= bound; bound *= 10) digits++;
  return digits;
}

/** What {@link split} answers: one object, refilled for each factor of a list. */
const FACTOR: SplitFactor = {
  negative: false,
  rest: 1,
  restDigits: 1,
  twos: 0,
  fives: 0,
  exponent: 0,
};

function filled(
  negative: boolean,
  rest: number | bigint,
  restDigits: number,
  twos: number,
  fives: number,
  exponent: number,
): SplitFactor {
  FACTOR.negative = negative;
  FACTOR.rest = rest;
  FACTOR.restDigits = restDigits;
  FACTOR.twos = twos;
  FACTOR.fives = fives;
  FACTOR.exponent = exponent;
  return FACTOR;
}

/** Number `index` of `numbers` (not zero), split; valid until the next call. */
function split(numbers: Decimals, index: number): SplitFactor {
  const { words } = numbers;
  const start = numbers.starts[index] as number;
  const count = (numbers.starts[index + 1] as number) - start;
  const head = words[start] as number;
  const digitsWritten = digitCount(head) + WORD_DIGITS * (count - 1);
  const exponent = (numbers.exponents[index] as number) - (digitsWritten - 1);
  const negative = (numbers.signs[index] as number) < 0;
  // At most two words (14 digits): the 2s and 5s come off in double arithmetic, exactly.
  if (count <= 2) {
    let rest = count === 1 ? head : head * WORD + (words[start + 1] as number);
    let twos = 0;
    while (rest % 2 === 0) {
      rest /= 2;
      twos++;
    }
    let fives = 0;
    while (rest % 5 === 0) {
      rest /= 5;
      fives++;
    }
    return filled(negative, rest, digitCount(rest), twos, fives, exponent);
  }
  let digits = String(head);
  for (let i = start + 1; i < start + count; i++) {
    digits += String(words[i]).padStart(WORD_DIGITS, "0");
  }
  let rest = BigInt(digits);
  // The lowest set bit of an integer is the power of two dividing it.
  const twos = (rest & -rest).toString(2).length - 1;
  rest >>= BigInt(twos);
  let fives = 0;
  for (const { k, power } of FIVE_BLOCKS) {
    while (rest % power === 0n) {
      rest /= power;
      fives += k;
    }
  }
  return filled(negative, rest, rest.toString().length, twos, fives, exponent);
}

/** The product of `values`, multiplied pairwise so the big multiplications are few. */
function productTree(values: bigint[]): bigint {
  let level = values;
  while (level.length > 1) {
    const next: bigint[] = [];
    for (let i = 0; i < level.length; i += 2) {
      const left = level[i] ?? 1n;
      next.push(i + 1 < level.length ? left * (level[i + 1] ?? 1n) : left);
    }
    level = next;
  }
  return level[0] ?? 1n;
}

function tooLong(atLeast: number): CalculationError {
  return new CalculationError(
    `the result needs at least ${atLeast} significant digits, more than the limit of ${MAX_RESULT_DIGITS}`,
  );
}

function exactProduct(numbers: Decimals): Exact {
  for (let i = 0; i < numbers.length; i++) if (numbers.isZero(i)) return new Exact(0);
  const rests: bigint[] = [];
  // Small rests are multiplied as doubles while the product stays exact, then become one BigInt.
  let small = 1;
  let negative = false;
  let twos = 0;
  let fives = 0;
  let exponent = 0;
  // A product of k-, l-, … digit numbers coprime to 10 has at least (k−1)+(l−1)+…+1 digits,
  // none of them trailing zeros: a hopeless product is refused before anything is multiplied.
  let minDigits = 1;
  for (let i = 0; i < numbers.length; i++) {
    const factor = split(numbers, i);
    minDigits += factor.restDigits - 1;
    if (minDigits > MAX_RESULT_DIGITS) throw tooLong(minDigits);
    negative = negative !== factor.negative;
    if (typeof factor.rest === "bigint") rests.push(factor.rest);
    else if (small * factor.rest <= Number.MAX_SAFE_INTEGER) small *= factor.rest;
    else {
      rests.push(BigInt(small));
      small = factor.rest;
    }
    twos += factor.twos;
    fives += factor.fives;
    exponent += factor.exponent;
  }
  // Pairs of 2 and 5 become powers of ten; the surplus of one of them stays in the digits.
  const tens = Math.min(twos, fives);
  const surplus = Math.max(twos, fives) - tens;
  const surplusBase = twos > fives ? 2 : 5;
  // floor(log10(base^surplus)) more digits at least; the epsilon keeps the bound a lower one.
  minDigits += Math.max(0, Math.floor(surplus * Math.log10(surplusBase) - 1e-9));
  if (minDigits > MAX_RESULT_DIGITS) throw tooLong(minDigits);
  rests.push(BigInt(small));
  const digits = productTree(rests) * BigInt(surplusBase) ** BigInt(surplus);
  return new Exact(`${negative ? "-" : ""}${digits}e${exponent + tens}`);
}

export default defineOperation({
  area: "stats",
  name: "product",
  summary: "Product of a list of numbers, exactly",
  description:
    "Multiplies 1 to 10,000 decimal numbers in arbitrary precision, so `0.1 × 0.2` is exactly `0.02` " +
    "and `99999999999 × 99999999999` keeps every digit. Any zero factor makes the product `0` " +
    "(whatever the other factors are); an odd number of negative factors makes it negative.\n\n" +
    "A product whose plain notation needs more than 10,000 digits is refused with a 422. The length " +
    "of a product is known in advance from its factors (a product of numbers not divisible by 10 is " +
    "at least as long as its factors together, less one digit each), so a product that cannot fit is " +
    "refused at once, without being computed, while factors that cancel into powers of ten " +
    "(`2e-5 × 5e4`, `4 × 25`) are always multiplied out. Send the list as repeated parameters " +
    "(`numbers=1&numbers=2`), comma-separated (`numbers=1,2`), or both.",
  input: z.object({
    numbers: decimals({ min: 1, max: 10_000, description: "The numbers to multiply." }),
  }),
  output: z.object({
    ...arithmeticFields,
    count: z.int().describe("How many numbers were multiplied."),
  }),
  examples: [
    {
      title: "Decimal fractions multiply exactly",
      input: { numbers: ["0.1", "0.2", "3"] },
      output: { result: 0.06, decimal: "0.06", count: 3 },
    },
    {
      title: "Products beyond 2^53 keep every digit",
      input: { numbers: ["99999999999", "99999999999"] },
      output: { result: 9.9999999998e21, decimal: "9999999999800000000001", count: 2 },
    },
    {
      title: "A zero factor gives zero",
      input: { numbers: ["-1.5", "1e9999", "0"] },
      output: { result: 0, decimal: "0", count: 3 },
    },
  ],
  // Splitting each factor dominates; the answer has at most 10,000 digits.
  cost: ({ numbers }) => ({
    work: numbers.length * ITEM_WORK,
    bytes: MAX_RESULT_DIGITS + 128,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => ({
    ...arithmeticResult(exactProduct(numbers)),
    count: numbers.length,
  }),
});
