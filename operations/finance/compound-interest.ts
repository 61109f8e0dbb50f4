import {
  CalculationError,
  decimal,
  defineOperation,
  Exact,
  MAX_RESULT_DIGITS,
  nearestDouble,
  ROUNDED_DIGITS,
  toPlain,
  z,
} from "#kit";
import { digitCount, type Float, fixed, gcd, pow10, powerBound, scaled } from "./_rational.js";

/** `int × 10^-places` in plain notation without trailing zeros. */
const trimmed = (int: bigint, places: number) => {
  const text = fixed(int, places);
  return places === 0 ? text : text.replace(/\.?0+$/, "");
};

const COMPOUNDINGS = {
  annually: 1,
  semiannually: 2,
  quarterly: 4,
  monthly: 12,
  weekly: 52,
  daily: 365,
} as const;
type Compounding = keyof typeof COMPOUNDINGS;

/** Most compounding periods: 1,000 years of daily compounding. */
const MAX_PERIODS = 365_000;

/** Rounds to the kit's 50 significant digits, half to even. */
const Rounded = Exact.clone({ precision: ROUNDED_DIGITS, rounding: Exact.ROUND_HALF_EVEN });

/** Bracket precisions tried in turn; the first is almost always enough. */
const PRECISIONS = [80, 160, 320, 640, 1280, 2560];

interface Figures {
  decimal: string;
  double: number | null;
}

const asExact = (x: Float) => new Exact(`${x.m}e${x.e}`);

/** The position of the leading digit of a positive `m × 10^e`: 1 for 1…9, 0 for 0.1…0.9. */
const magnitudeOf = (x: Float) => x.m.toString().length + x.e;

/** A value known only as a bracket, written as both bounds agree, or undefined if they do not. */
function agreed(low: Exact, high: Exact): Figures | undefined {
  const lowRounded = new Exact(new Rounded(low).toSignificantDigits(ROUNDED_DIGITS));
  const highRounded = new Exact(new Rounded(high).toSignificantDigits(ROUNDED_DIGITS));
  if (!lowRounded.eq(highRounded)) return undefined;
  const double = nearestDouble(low);
  if (double !== nearestDouble(high)) return undefined;
  return { decimal: toPlain(lowRounded), double };
}

function writable(value: Exact, what: string): Figures {
  const text = toPlain(value);
  if (text.replace(/[-.]/g, "").length > MAX_RESULT_DIGITS) {
    throw new CalculationError(
      `${what} needs more than ${MAX_RESULT_DIGITS} digits in plain notation`,
      ["years"],
    );
  }
  return { decimal: text, double: nearestDouble(value) };
}

interface Answer {
  amount: Figures;
  interest: Figures;
  exact: boolean;
}

/**
 * `principal × (num/den)^periods` and the interest over the principal: exact when the
 * power terminates within the kit's 10,000 digits, else each correctly rounded to 50
 * significant digits from bounds that close in on it.
 */
function grow(principal: Exact, num: bigint, den: bigint, periods: number): Answer {
  const owed = scaled(principal);
  const principalDigits = digitCount(owed.int);
  // den = 2^i·5^j: the power terminates; computed exactly (in BigInt) when short enough.
  let twos = 0;
  let fives = 0;
  let rest = den;
  for (; rest % 2n === 0n; rest /= 2n) twos++;
  for (; rest % 5n === 0n; rest /= 5n) fives++;
  const exactDigits = periods * (digitCount(num) + digitCount(den)) + principalDigits;
  if (rest === 1n && exactDigits <= MAX_RESULT_DIGITS) {
    // P·num^N / (10^s · 2^(iN) · 5^(jN)) = P·num^N·(5 or 2)^(…) / 10^(s + max(i, j)·N)
    const places = owed.scale + Math.max(twos, fives) * periods;
    const filler =
      twos > fives
        ? 5n ** BigInt((twos - fives) * periods)
        : 2n ** BigInt((fives - twos) * periods);
    const amount = owed.int * num ** BigInt(periods) * filler;
    const interest = amount - owed.int * pow10(places - owed.scale);
    return {
      amount: writable(new Exact(trimmed(amount, places)), "the amount"),
      interest: writable(new Exact(trimmed(interest, places)), "the interest"),
      exact: true,
    };
  }
  for (const precision of PRECISIONS) {
    const low = powerBound(num, den, periods, precision, false);
    const high = powerBound(num, den, periods, precision, true);
    // Digits before the point (negative: zeros after it) of the amount, from its bounds.
    const magnitude = magnitudeOf(high) + principalDigits - owed.scale;
    if (magnitude > MAX_RESULT_DIGITS) {
      throw new CalculationError(
        `the amount needs more than ${MAX_RESULT_DIGITS} digits in plain notation`,
        ["years"],
      );
    }
    if (magnitude < -(MAX_RESULT_DIGITS - ROUNDED_DIGITS - 2)) {
      throw new CalculationError(
        `the amount is too small to write in ${MAX_RESULT_DIGITS} digits of plain notation`,
        ["rate"],
      );
    }
    const lowAmount = principal.times(asExact(low));
    const highAmount = principal.times(asExact(high));
    const amount = agreed(lowAmount, highAmount);
    const interest = agreed(lowAmount.minus(principal), highAmount.minus(principal));
    if (amount && interest) return { amount, interest, exact: false };
  }
  // Not reached: a value that does not terminate within 10,000 digits is never a tie.
  throw new Error("compound interest: the bounds did not meet");
}

const nullableNumber = (description: string) => z.number().nullable().describe(description);

export default defineOperation({
  area: "finance",
  name: "compound-interest",
  summary: "Compound interest A = P × (1 + r/n)^(n·t), exactly",
  description: [
    "The amount a principal grows to when interest at `rate` percent a year is compounded " +
      "`compounding` times a year (`annually` 1, `semiannually` 2, `quarterly` 4, `monthly` 12, " +
      "`weekly` 52, `daily` 365) for `years`: `amount = principal × (1 + rate / (100 × n))^(n × years)`, " +
      "and `interest = amount − principal`.",
    "`years × n` must be a whole number of periods (1.5 years quarterly is 6; 0.1 year monthly " +
      "is a 422), at most 365,000. `rate` may be negative, down to −100 × n (everything lost each " +
      "period); below that is a 422. Continuous compounding is not offered: e^x is never an exact " +
      "decimal.",
    "Arithmetic is exact rational. `amountDecimal` and `interestDecimal` are exact when the amount " +
      "terminates within 10,000 digits (`annually`, `semiannually` and `quarterly` always terminate; " +
      "`monthly`, `weekly` and `daily` only when the rate makes them) and `isExact` is true; otherwise each is the exact value correctly rounded to 50 " +
      "significant digits, half to even (the kit's rounding), and `isExact` is false. `amount` and " +
      "`interest` are the doubles nearest to the exact values. A value whose plain notation would " +
      "need more than 10,000 digits is a 422.",
  ].join("\n\n"),
  input: z.object({
    principal: decimal({ min: "0", description: "The amount invested or lent; zero or more." }),
    rate: decimal({ description: "The nominal interest rate in percent per year (`5` is 5 %)." }),
    years: decimal({ min: "0", description: "How long the interest runs, in years." }),
    compounding: z
      .enum(Object.keys(COMPOUNDINGS) as [Compounding, ...Compounding[]])
      .default("annually")
      .describe("How often interest is added: annually (default), …, daily (365 a year)."),
  }),
  output: z.object({
    amount: nullableNumber("Principal plus interest: the nearest double."),
    interest: nullableNumber("The interest earned: the nearest double."),
    amountDecimal: z
      .string()
      .describe("Principal plus interest: exact, or 50 significant digits when isExact is false."),
    interestDecimal: z
      .string()
      .describe("The interest: exact, or 50 significant digits when isExact is false."),
    isExact: z.boolean().describe("Whether both decimals are exact."),
    periods: z.int().describe("The number of compounding periods, `years × n`."),
    compounding: z.enum(Object.keys(COMPOUNDINGS) as [Compounding, ...Compounding[]]),
  }),
  examples: [
    {
      title: "1,000 at 5 % compounded yearly for 10 years: exact",
      input: { principal: "1000", rate: "5", years: "10" },
      output: {
        amount: 1628.8946267774413,
        interest: 628.8946267774414,
        amountDecimal: "1628.89462677744140625",
        interestDecimal: "628.89462677744140625",
        isExact: true,
        periods: 10,
        compounding: "annually",
      },
    },
    {
      title: "Monthly at 5 % does not terminate: 50 significant digits",
      input: { principal: "1000", rate: "5", years: "1", compounding: "monthly" },
      output: {
        amount: 1051.1618978817332,
        interest: 51.16189788173319,
        amountDecimal: "1051.1618978817331898048738909608000985268885538219",
        interestDecimal: "51.161897881733189804873890960800098526888553821855",
        isExact: false,
        periods: 12,
        compounding: "monthly",
      },
    },
    {
      title: "10,000 at 3.5 % compounded daily for 30 years",
      input: { principal: "10000", rate: "3.5", years: "30", compounding: "daily" },
      output: {
        amount: 28575.07269676203,
        interest: 18575.07269676203,
        amountDecimal: "28575.072696762029006371470497136143049063708060426",
        interestDecimal: "18575.072696762029006371470497136143049063708060426",
        isExact: false,
        periods: 10950,
        compounding: "daily",
      },
    },
  ],
  // The bracketed power is a few dozen multiplications of numbers of at most 2,560 digits,
  // the exact one a BigInt power of at most 10,000 digits: 1–8 ms measured at the bounds;
  // two decimals of at most 10,000 digits.
  cost: () => ({ work: 5_000_000, bytes: 2 * (MAX_RESULT_DIGITS + 3) + 512 }),
  handler: ({ principal, rate, years, compounding }) => {
    const perYear = COMPOUNDINGS[compounding];
    const periodCount = years.times(perYear);
    if (!periodCount.isInteger()) {
      throw new CalculationError(
        `${toPlain(years)} years ${compounding} is ${toPlain(periodCount)} periods; it must be a whole number`,
        ["years"],
      );
    }
    if (periodCount.gt(MAX_PERIODS)) {
      throw new CalculationError(
        `${toPlain(periodCount)} periods is more than the limit of ${MAX_PERIODS}`,
        ["years"],
      );
    }
    const periods = periodCount.toNumber();
    // 1 + rate / (100 n) = (100 n · 10^s + rate · 10^s) / (100 n · 10^s), in lowest terms.
    const { int: rateInt, scale } = scaled(rate);
    const base = BigInt(100 * perYear) * 10n ** BigInt(scale);
    let num = base + rateInt;
    let den = base;
    if (num < 0n) {
      throw new CalculationError(
        `a rate below −${100 * perYear} % compounded ${compounding} takes more than everything each period`,
        ["rate"],
      );
    }
    const divisor = gcd(num, den);
    if (divisor > 1n) {
      num /= divisor;
      den /= divisor;
    }
    const answer =
      num === 0n || periods === 0 || principal.isZero()
        ? ((amount: Exact) => ({
            amount: writable(amount, "the amount"),
            interest: writable(amount.minus(principal), "the interest"),
            exact: true,
          }))(periods === 0 ? principal : num === 0n ? new Exact(0) : principal)
        : grow(principal, num, den, periods);
    return {
      amount: answer.amount.double,
      interest: answer.interest.double,
      amountDecimal: answer.amount.decimal,
      interestDecimal: answer.interest.decimal,
      isExact: answer.exact,
      periods,
      compounding,
    };
  },
});
