import {
  assertWritable,
  CalculationError,
  decimal,
  defineOperation,
  Exact,
  ITEM_WORK,
  MAX_RESULT_DIGITS,
  nearestDouble,
  toPlain,
  z,
} from "#kit";

/** Significant digits of a decimal string whose exact value does not terminate. */
const SIGNIFICANT_DIGITS = 34;

const UNITS_PER_YEAR = { years: 1, months: 12, days: 365 } as const;

/** Quotients that do not terminate are rounded half to even at {@link SIGNIFICANT_DIGITS}. */
const Rounded = Exact.clone({ precision: SIGNIFICANT_DIGITS, rounding: Exact.ROUND_HALF_EVEN });

/** Bounds for the search of a non-terminating quotient's nearest double (see below). */
const FIRST_BRACKET_DIGITS = 40;
const LAST_BRACKET_DIGITS = 20_480;

/** A quotient written down: exactly when it terminates, else rounded. */
interface Quotient {
  decimal: string;
  double: number | null;
  exact: boolean;
}

/**
 * `numerator / divisor` terminates in decimal exactly when the part of `divisor` that is
 * coprime to 10 divides the numerator's significant digits (a power of ten cannot help).
 */
function quotientTerminates(numerator: Exact, divisor: number): boolean {
  let coprimeToTen = divisor;
  while (coprimeToTen % 2 === 0) coprimeToTen /= 2;
  while (coprimeToTen % 5 === 0) coprimeToTen /= 5;
  if (coprimeToTen === 1 || numerator.isZero()) return true;
  const [mantissa = "0"] = numerator.abs().toExponential().split("e");
  return BigInt(mantissa.replace(".", "")) % BigInt(coprimeToTen) === 0n;
}

/**
 * The double nearest to a quotient that does not terminate. Rounding it to decimal first
 * and then to a double could land on a tie between two doubles that the exact value does
 * not sit on, so the quotient is bracketed instead: truncated to `digits` digits and one
 * unit above that. When both ends round to the same double, so does every value between,
 * the exact one included. A non-terminating quotient is never exactly a tie (ties are
 * dyadic, so terminating), so a finer bracket always settles it.
 */
function nearestDoubleOfQuotient(numerator: Exact, divisor: number, rounded: Exact): number | null {
  const magnitude = numerator.abs();
  for (let digits = FIRST_BRACKET_DIGITS; digits <= LAST_BRACKET_DIGITS; digits *= 2) {
    const Truncated = Exact.clone({ precision: digits, rounding: Exact.ROUND_DOWN });
    const below = new Exact(new Truncated(magnitude).div(divisor));
    const above = below.plus(new Exact(`1e${below.e - digits + 1}`));
    const low = nearestDouble(below);
    if (low === nearestDouble(above)) {
      if (low === null || low === 0) return low;
      return numerator.isNegative() ? -low : low;
    }
  }
  return nearestDouble(rounded); // not reached for any input seen so far; still a close answer
}

/**
 * Divides exactly when the quotient terminates, else rounds it to 34 significant digits
 * (half to even). Refuses a quotient too long to write down.
 */
function divide(numerator: Exact, divisor: number, what: string): Quotient {
  if (quotientTerminates(numerator, divisor)) {
    const value = numerator.div(divisor);
    assertWritable(value, what);
    return { decimal: toPlain(value), double: nearestDouble(value), exact: true };
  }
  const rounded = new Rounded(numerator).div(divisor);
  // Trailing zeros are kept, so a rounded string always shows all its significant digits.
  const decimalPlaces = Math.max(0, SIGNIFICANT_DIGITS - 1 - rounded.e);
  const digits = (rounded.e >= 0 ? rounded.e + 1 : 1) + decimalPlaces;
  if (digits > MAX_RESULT_DIGITS) {
    throw new CalculationError(
      `${what} needs ${digits} digits in plain notation, more than the limit of ${MAX_RESULT_DIGITS}`,
    );
  }
  return {
    decimal: rounded.toFixed(decimalPlaces),
    double: nearestDoubleOfQuotient(numerator, divisor, rounded),
    exact: false,
  };
}

const nullableNumber = (description: string) => z.number().nullable().describe(description);

export default defineOperation({
  area: "finance",
  name: "simple-interest",
  summary: "Simple interest I = P × r × t, exactly",
  description: [
    "Computes simple interest, `interest = principal × rate / 100 × time`, and",
    "`totalAmount = principal + interest`, in arbitrary-precision decimal arithmetic.",
    "",
    "`rate` is a percentage per year. It may be negative, as real-world negative interest",
    "rates are; the interest then is negative (or zero) and `totalAmount` is at most the",
    "principal, and below zero once the rate times the time in years is under −100 %.",
    "`principal` and `time` must be zero or more. `timeUnit` says what `time` counts:",
    "`years` (default), `months` (12 to the year) or `days` (365 to the year, an",
    "Actual/365 Fixed convention), so the interest is",
    "`principal × rate × time / (100 × units per year)`.",
    "",
    "`interest` and `totalAmount` are JSON numbers: the doubles nearest to the exact values",
    "(`null` beyond the double range). `interestDecimal` and `totalAmountDecimal` are the",
    "values as decimal strings in plain notation. They are exact whenever the division by",
    "1,200 (months) or 36,500 (days) terminates, which is always the case for years. When",
    "it does not terminate (1,000 at 5 % for 1 day is 0.13698630…), each string is the exact",
    "value rounded to 34 significant digits, half to even (trailing zeros kept, so all 34",
    "digits show), and `isExact` is false. The number fields are still the doubles nearest",
    "to the exact values, not to the rounded strings.",
    "",
    "`principal`, `rate` and `time` are echoed as JSON numbers (the nearest doubles).",
    "A principal or time below zero is a 422 (`greater_than_equal`); a result whose plain",
    "notation would need more than 10,000 digits is a 422.",
  ].join("\n"),
  input: z.object({
    principal: decimal({ min: "0", description: "The amount lent or invested; zero or more." }),
    rate: decimal({
      description: "The interest rate in percent per year (`5` is 5 %); may be negative.",
    }),
    time: decimal({
      min: "0",
      description: "How long the interest runs, in `timeUnit`s; zero or more.",
    }),
    timeUnit: z
      .enum(["years", "months", "days"])
      .default("years")
      .describe(
        "What `time` counts: `years` (default), `months` (12 a year) or `days` (365 a year).",
      ),
  }),
  output: z.object({
    principal: nullableNumber("The principal, as the nearest double."),
    rate: nullableNumber("The yearly rate in percent, as the nearest double."),
    time: nullableNumber("The time in `timeUnit`s, as the nearest double."),
    timeUnit: z.enum(["years", "months", "days"]).describe("The unit `time` is counted in."),
    interest: nullableNumber(
      "The interest: the double nearest to the exact value, or null beyond the double range.",
    ),
    totalAmount: nullableNumber(
      "Principal plus interest: the double nearest to the exact value, or null beyond the double range.",
    ),
    interestDecimal: z
      .string()
      .describe(
        "The interest in plain decimal notation: exact, or 34 significant digits when isExact is false.",
      ),
    totalAmountDecimal: z
      .string()
      .describe(
        "Principal plus interest in plain decimal notation: exact, or 34 significant digits when isExact is false.",
      ),
    isExact: z
      .boolean()
      .describe(
        "True when interestDecimal and totalAmountDecimal are exact, false when they are rounded.",
      ),
  }),
  examples: [
    {
      title: "1,000 at 5 % a year for 3 years",
      input: { principal: "1000", rate: "5", time: "3" },
      output: {
        principal: 1000,
        rate: 5,
        time: 3,
        timeUnit: "years",
        interest: 150,
        totalAmount: 1150,
        interestDecimal: "150",
        totalAmountDecimal: "1150",
        isExact: true,
      },
    },
    {
      title: "1,000 at 12 % a year for 6 months",
      input: { principal: "1000", rate: "12", time: "6", timeUnit: "months" },
      output: {
        principal: 1000,
        rate: 12,
        time: 6,
        timeUnit: "months",
        interest: 60,
        totalAmount: 1060,
        interestDecimal: "60",
        totalAmountDecimal: "1060",
        isExact: true,
      },
    },
    {
      title: "One day's interest does not terminate, so the strings are rounded",
      input: { principal: "1000", rate: "5", time: "1", timeUnit: "days" },
      output: {
        principal: 1000,
        rate: 5,
        time: 1,
        timeUnit: "days",
        interest: 0.136986301369863,
        totalAmount: 1000.1369863013699,
        interestDecimal: "0.1369863013698630136986301369863014",
        totalAmountDecimal: "1000.136986301369863013698630136986",
        isExact: false,
      },
    },
    {
      title: "A negative rate takes interest away",
      input: { principal: "1000", rate: "-0.5", time: "2" },
      output: {
        principal: 1000,
        rate: -0.5,
        time: 2,
        timeUnit: "years",
        interest: -10,
        totalAmount: 990,
        interestDecimal: "-10",
        totalAmountDecimal: "990",
        isExact: true,
      },
    },
  ],
  // Two products and two quotients of inputs of at most 100 characters: up to ~4.4 ms
  // (measured with 1e±3000-scale values in days); two decimals of at most 10,000 digits.
  cost: () => ({ work: 5_000 * ITEM_WORK, bytes: 2 * (MAX_RESULT_DIGITS + 3) + 512 }),
  handler: ({ principal, rate, time, timeUnit }) => {
    const divisor = 100 * UNITS_PER_YEAR[timeUnit];
    const interestNumerator = principal.times(rate).times(time);
    const interest = divide(interestNumerator, divisor, "the interest");
    const total = divide(
      principal.times(divisor).plus(interestNumerator),
      divisor,
      "the total amount",
    );
    return {
      principal: nearestDouble(principal),
      rate: nearestDouble(rate),
      time: nearestDouble(time),
      timeUnit,
      interest: interest.double,
      totalAmount: total.double,
      interestDecimal: interest.decimal,
      totalAmountDecimal: total.decimal,
      isExact: interest.exact && total.exact,
    };
  },
});
