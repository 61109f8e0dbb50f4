import {
  assertWritable,
  CalculationError,
  decimal,
  defineOperation,
  Exact,
  ITEM_WORK,
  integer,
  nearestDouble,
  nearestDoubleField,
  toPlain,
  z,
} from "#kit";

type DecimalConstructor = typeof Exact;

/**
 * Largest working precision tried. decimal.js carries ln(10) to 1025 digits and needs a few
 * guard digits beyond the working precision, so `ln` refuses much more than this.
 */
const MAX_WORKING_DIGITS = 960;

const workingConstructors = new Map<number, DecimalConstructor>();

/** A decimal.js constructor rounding to `digits` significant digits (cached per precision). */
function working(digits: number): DecimalConstructor {
  let Working = workingConstructors.get(digits);
  if (Working === undefined) {
    Working = Exact.clone({ precision: digits });
    workingConstructors.set(digits, Working);
  }
  return Working;
}

interface Root {
  /** The root correctly rounded to the requested significant digits. */
  rounded: Exact;
  /** The double nearest to the true root. */
  nearest: number | null;
  /** Whether the root is exactly `rounded`. */
  isExact: boolean;
}

const roundTo = (value: Exact, digits: number) =>
  value.toSignificantDigits(digits, Exact.ROUND_HALF_EVEN);

/** Packs a root known exactly. */
function exactly(root: Exact, precision: number): Root {
  return {
    rounded: roundTo(root, precision),
    nearest: nearestDouble(root),
    isExact: root.sd() <= precision,
  };
}

/**
 * The terminating decimal `candidate` rounds to, if it is exactly the root of `x`. A mantissa
 * of k digits not divisible by 10, raised to the n-th power, has at least (k−1)·n + 1 digits,
 * so a candidate longer than that cannot be the root; the check also keeps the exact power
 * small (at most about sd(x) + n digits).
 */
function terminatingRoot(x: Exact, degree: number, candidate: Exact): Exact | undefined {
  if ((candidate.sd() - 1) * degree + 1 > x.sd()) return undefined;
  return candidate.pow(degree).eq(x) ? candidate : undefined;
}

/** Integers below this are doubles exactly, and so are their products below it. */
const EXACT_INTEGERS = 2 ** 53;

/**
 * The integer root of an integer `x` below 2^53 (27 → 3), or undefined when it has none:
 * checked by multiplying in doubles, which stay exact below 2^53, with no decimal built.
 */
function integerRoot(x: number, degree: number): number | undefined {
  const root = Math.round(x ** (1 / degree));
  let power = 1;
  for (let i = 0; i < degree && power <= x; i++) power *= root;
  return power === x ? root : undefined;
}

/**
 * A root of up to 10 significant digits (perfect powers: 27 → 3, 0.0016 → 0.2) found from
 * a double estimate and checked exactly, so the common exact cases skip ln/exp. The
 * estimate goes through log10 because `x` may be far outside the double range.
 */
function guessedTerminatingRoot(x: Exact, degree: number): Exact | undefined {
  const double = x.toNumber();
  if (double < EXACT_INTEGERS && x.isInteger()) {
    const root = integerRoot(double, degree);
    if (root !== undefined) return new Exact(root);
  }
  const [mantissa = "1", exponent = "0"] = x.toSignificantDigits(17).toExponential().split("e");
  const log10Root = (Math.log10(Number(mantissa)) + Number(exponent)) / degree;
  const power = Math.floor(log10Root);
  const guess = new Exact(`${(10 ** (log10Root - power)).toPrecision(10)}e${power}`);
  return terminatingRoot(x, degree, guess);
}

/**
 * The positive `degree`-th root of `x` > 0, correctly rounded (Ziv's strategy): approximate it
 * with a known error bound; if the root is a short terminating decimal, find it exactly;
 * otherwise widen the approximation to an interval and accept the rounding once both ends
 * agree, else retry with twice the working precision.
 */
function positiveRoot(x: Exact, degree: number, precision: number): Root {
  if (degree === 1) return exactly(x, precision);
  const quick = guessedTerminatingRoot(x, degree);
  if (quick !== undefined) return exactly(quick, precision);
  let digits = Math.max(precision, 17) + 25;
  for (;;) {
    // ln, div and exp each round correctly to `digits`; |ln x| < 23,100 costs 5 digits of the
    // quotient's absolute accuracy, so the relative error of y stays below 10^-(digits-5),
    // a thousandth of the slack allowed for it below.
    const Working = working(digits);
    // sqrt and cbrt are correctly rounded too, and much cheaper than ln/exp.
    const approximation =
      degree === 2
        ? new Working(x).sqrt()
        : degree === 3
          ? new Working(x).cbrt()
          : new Working(x).ln().div(degree).exp();
    const y = new Exact(approximation);

    // 10 digits below the working precision, the noise is gone: a root that terminates
    // within that many digits comes out exactly, trailing zeros dropped.
    const exact = terminatingRoot(x, degree, roundTo(y, digits - 10));
    if (exact !== undefined) return exactly(exact, precision);

    // No terminating root that short exists, so the root is not a rounding tie (a tie at
    // `precision` digits has precision + 1 digits): once both ends of an interval around y
    // round the same way, the root does too.
    const slack = new Exact(`1e-${digits - 8}`);
    const low = y.times(new Exact(1).minus(slack));
    const high = y.times(new Exact(1).plus(slack));
    const rounded = roundTo(low, precision);
    const nearest = nearestDouble(low);
    if (rounded.eq(roundTo(high, precision)) && nearest === nearestDouble(high)) {
      return { rounded, nearest, isExact: false };
    }
    if (digits >= MAX_WORKING_DIGITS) {
      // A root agreeing with a rounding boundary to 950 digits: no input of at most 100
      // characters is known to get here. Answer the best approximation rather than loop.
      return { rounded: roundTo(y, precision), nearest: nearestDouble(y), isExact: false };
    }
    digits = Math.min(digits * 2, MAX_WORKING_DIGITS);
  }
}

export default defineOperation({
  area: "math",
  name: "nth-root",
  summary: "Real n-th root, correctly rounded to a chosen number of significant digits",
  description:
    "Computes the real `degree`-th root of `number` (degree 1 to 1000) and answers it in `decimal`, " +
    "correctly rounded to `precision` significant digits (1 to 100, default 20; ties to even), in plain " +
    "notation without trailing zeros, and in `result`, the double nearest to the true root.\n\n" +
    "Roots that are terminating decimals come out exactly: `27`, degree 3 gives `3`, `0.001` gives " +
    "`0.1`, `1e-9999` gives `1e-3333` written out. `isExact` tells whether the root is exactly " +
    "`decimal`: true for such a root when it has at most `precision` significant digits, false for an " +
    "irrational root and for a root rounded to fewer digits than it has. Rounding is correct also in " +
    "the rare case where the digits after the cut are a long run of 0s or 9s: the root is " +
    "recomputed with more working digits until its rounding is certain.\n\n" +
    "An odd degree of a negative number gives the negative real root (`-8`, degree 3 gives `-2`); an " +
    "even degree of a negative number has no real root and is refused with a 422 on `number`. The " +
    "root of zero is `0`. Degree 1 answers the number itself, rounded. `result` is null when the root " +
    "lies beyond the double range (the square root of `1e9998` is `1e4999`) and `0` when it is below " +
    "it. Like every decimal input, `number` may need at most 10,000 digits when written out " +
    "(`1e9999` is accepted, `1e10000` refused with a 422), so its root always fits.",
  input: z.object({
    number: decimal({ description: "The number whose root is taken (the radicand)." }),
    degree: integer({ min: 1, max: 1000, description: "Which root: 2 for square, 3 for cube…" }),
    precision: integer({
      min: 1,
      max: 100,
      description: "Significant digits of `decimal`, 1 to 100 (default 20).",
    }).default(20),
  }),
  output: z.object({
    number: nearestDoubleField("`number`"),
    degree: z.int().describe("The degree of the root."),
    precision: z.int().describe("Significant digits `decimal` was rounded to."),
    result: z
      .number()
      .nullable()
      .describe(
        "The double nearest to the exact root, or null when its magnitude is beyond the double range.",
      ),
    decimal: z
      .string()
      .describe(
        "The root correctly rounded to `precision` significant digits (ties to even), in plain notation.",
      ),
    isExact: z.boolean().describe("Whether the root is exactly `decimal`."),
  }),
  examples: [
    {
      title: "A perfect cube comes out exact",
      input: { number: "27", degree: 3 },
      output: { number: 27, degree: 3, precision: 20, result: 3, decimal: "3", isExact: true },
    },
    {
      title: "Square root of 2 to 20 significant digits",
      input: { number: "2", degree: 2 },
      output: {
        number: 2,
        degree: 2,
        precision: 20,
        result: Math.SQRT2,
        decimal: "1.4142135623730950488",
        isExact: false,
      },
    },
    {
      title: "Odd root of a negative number",
      input: { number: "-8", degree: 3, precision: 5 },
      output: { number: -8, degree: 3, precision: 5, result: -2, decimal: "-2", isExact: true },
    },
  ],
  // ln and exp to at most 125 digits: up to ~5 ms (degree 7, 100 digits, measured);
  // the answer is at most 100 significant digits written out within 10,000.
  cost: () => ({ work: 6_000 * ITEM_WORK, bytes: 10_512 }),
  handler: ({ number, degree, precision }) => {
    const echo = { number: nearestDouble(number), degree, precision };
    if (number.isZero()) return { ...echo, result: 0, decimal: "0", isExact: true };
    const negative = number.isNegative();
    if (negative && degree % 2 === 0) {
      throw new CalculationError(`a negative number has no real root of even degree ${degree}`, [
        "number",
      ]);
    }
    const root = positiveRoot(number.abs(), degree, precision);
    const rounded = negative ? root.rounded.neg() : root.rounded;
    assertWritable(rounded);
    return {
      ...echo,
      result: negative && root.nearest !== null ? -root.nearest : root.nearest,
      decimal: toPlain(rounded),
      isExact: root.isExact,
    };
  },
});
