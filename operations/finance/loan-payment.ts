import {
  CalculationError,
  type Cost,
  decimal,
  defineOperation,
  digitSpan,
  Exact,
  integer,
  nearestDouble,
  z,
} from "#kit";
import {
  assertPowerDigits,
  digitCount,
  fixed,
  gcd,
  pow10,
  ROUNDING_MODES,
  roundDiv,
  scaled,
} from "./_rational.js";

const FREQUENCIES = {
  annually: 1,
  semiannually: 2,
  quarterly: 4,
  monthly: 12,
  biweekly: 26,
  weekly: 52,
} as const;
type Frequency = keyof typeof FREQUENCIES;
const FREQUENCY_NAMES = Object.keys(FREQUENCIES) as [Frequency, ...Frequency[]];

/** Most payments: 100 years of monthly payments. Each is a row of the schedule. */
const MAX_PERIODS = 1200;
/** Longest power computed exactly ((1 + i)^n as a fraction): a few milliseconds. */
const MAX_POWER_DIGITS = 40_000;
const MAX_PLACES = 10;

/** Work of one digit of the exact power (BigInt squaring, measured ≈ 100 ns a digit). */
const POWER_WORK_PER_DIGIT = 150;
/** Work of one schedule row: a few BigInt operations and five strings. */
const ROW_WORK = 3_000;

/** Digits of any amount the schedule writes, from the input alone (see the cost). */
function amountDigits(principal: Exact, rate: Exact, places: number): number {
  return digitSpan([principal]) + digitSpan([rate]) + places + 8;
}

const principalParam = decimal({ min: "0", description: "The amount borrowed; zero or more." });
const rateParam = decimal({
  min: "0",
  description: "The nominal interest rate in percent per year (`6` is 6 %); zero or more.",
});

const row = z.object({
  period: z.int().describe("The payment's number, from 1."),
  payment: z.string().describe("The amount paid."),
  interest: z.string().describe("The part of the payment that is interest."),
  principal: z.string().describe("The part of the payment that repays the principal."),
  balance: z.string().describe("What is still owed after the payment."),
});

interface Row {
  period: number;
  payment: string;
  interest: string;
  principal: string;
  balance: string;
}

export default defineOperation({
  area: "finance",
  name: "loan-payment",
  summary: "Loan payment (annuity) and amortisation schedule, in exact decimals",
  description: [
    "The fixed payment that repays `principal` in `periods` equal payments (`frequency` times a " +
      "year: annually 1, semiannually 2, quarterly 4, monthly 12, biweekly 26, weekly 52) at a " +
      "nominal yearly `rate` in percent, each period charging `rate / (100 × frequency)` of the " +
      "balance: `payment = principal × i / (1 − (1 + i)^−periods)`, or `principal / periods` at a " +
      "zero rate. Payments are made at the end of each period.",
    "Money is rounded to `decimalPlaces` (default 2) with `rounding` (`half-even`, the default, or " +
      "`half-up`), from exact rational arithmetic: `payment` is the exact annuity rounded once. The " +
      "schedule rounds each period's interest on the balance the same way, the principal part is " +
      "the payment less the interest, and the last payment is adjusted so the balance ends at " +
      "exactly zero (it may differ from `payment` by a few units of the last place, more over many " +
      "periods). When a payment rounded up would repay more than is owed before the last period, " +
      "that payment is cut to what is owed and the schedule ends there (`paymentCount` < `periods`). `totalPaid` " +
      "and `totalInterest` add up the schedule. `principal` must have at most `decimalPlaces` " +
      "decimals (422 otherwise).",
    "Bounds: `periods` from 1 to 1,200 (100 years monthly); `includeSchedule=false` leaves the " +
      "schedule out (the totals are still those of the schedule). An exact computation of " +
      "(1 + i)^periods needing more than 40,000 digits (a rate written with many digits over many " +
      "periods) is a 422.",
  ].join("\n\n"),
  input: z.object({
    principal: principalParam,
    rate: rateParam,
    periods: integer({
      min: 1,
      max: MAX_PERIODS,
      description: "The number of payments, 1 to 1200.",
    }),
    frequency: z
      .enum(FREQUENCY_NAMES)
      .default("monthly")
      .describe("How many payments a year: monthly (default), annually, …, weekly."),
    decimalPlaces: integer({
      min: 0,
      max: MAX_PLACES,
      description: "Decimals of the currency (default 2).",
    }).default(2),
    rounding: z
      .enum(ROUNDING_MODES)
      .default("half-even")
      .describe("How amounts are rounded to `decimalPlaces`: `half-even` (default) or `half-up`."),
    includeSchedule: z
      .boolean()
      .default(true)
      .describe("Whether to answer the amortisation schedule (default true)."),
  }),
  output: z.object({
    payment: z.string().describe("The regular payment, rounded to `decimalPlaces`."),
    paymentNumber: z.number().nullable().describe("`payment` as the nearest double."),
    lastPayment: z.string().describe("The final payment, adjusted to clear the balance."),
    paymentCount: z
      .int()
      .describe(
        "Payments in the schedule: `periods`, or fewer when rounding up repays the loan early.",
      ),
    totalPaid: z.string().describe("The sum of all payments of the schedule."),
    totalInterest: z.string().describe("The sum of the interest of the schedule."),
    periodRate: z
      .string()
      .describe(
        "The rate per period in percent, `rate / frequency`, exact or 50 significant digits.",
      ),
    periods: z.int(),
    frequency: z.enum(FREQUENCY_NAMES),
    schedule: z.array(row).describe("One row per payment (empty when includeSchedule is false)."),
  }),
  examples: [
    {
      title: "10,000 over 12 months at 6 %",
      input: { principal: "10000", rate: "6", periods: 12, includeSchedule: false },
      output: {
        payment: "860.66",
        paymentNumber: 860.66,
        lastPayment: "860.70",
        paymentCount: 12,
        totalPaid: "10327.96",
        totalInterest: "327.96",
        periodRate: "0.5",
        periods: 12,
        frequency: "monthly",
        schedule: [],
      },
    },
    {
      title: "1,000 over 3 years, yearly at 10 %, with its schedule",
      input: { principal: "1000", rate: "10", periods: 3, frequency: "annually" },
      output: {
        payment: "402.11",
        paymentNumber: 402.11,
        lastPayment: "402.13",
        paymentCount: 3,
        totalPaid: "1206.35",
        totalInterest: "206.35",
        periodRate: "10",
        periods: 3,
        frequency: "annually",
        schedule: [
          {
            period: 1,
            payment: "402.11",
            interest: "100.00",
            principal: "302.11",
            balance: "697.89",
          },
          {
            period: 2,
            payment: "402.11",
            interest: "69.79",
            principal: "332.32",
            balance: "365.57",
          },
          { period: 3, payment: "402.13", interest: "36.56", principal: "365.57", balance: "0.00" },
        ],
      },
    },
  ],
  cost: ({ principal, rate, periods, decimalPlaces, includeSchedule }): Cost => {
    const rateDigits = digitSpan([rate]) + 4;
    const digits = amountDigits(principal, rate, decimalPlaces);
    const rows = includeSchedule ? periods : 0;
    return {
      work: 2 * periods * rateDigits * POWER_WORK_PER_DIGIT + periods * ROW_WORK,
      // Each row: five amounts and the keys; the totals and the rest: a few more.
      bytes: rows * (5 * (digits + 3) + 80) + 8 * (digits + 3) + 512,
      loc: ["periods"],
    };
  },
  handler: ({ principal, rate, periods, frequency, decimalPlaces, rounding, includeSchedule }) => {
    const perYear = FREQUENCIES[frequency];
    const places = decimalPlaces;
    if (principal.decimalPlaces() > places) {
      throw new CalculationError(
        `principal has ${principal.decimalPlaces()} decimals; at most decimalPlaces (${places}) are allowed`,
        ["principal"],
      );
    }
    const owed = scaled(principal);
    const principalUnits = owed.int * pow10(places - owed.scale);
    // i = rate / (100 f) = rateInt / (100 f · 10^s); 1 + i = num / den in lowest terms.
    const { int: rateInt, scale: rateScale } = scaled(rate);
    const rateDen = BigInt(100 * perYear) * pow10(rateScale);
    const periodRate = rate.div(perYear);

    let payment: bigint;
    if (rateInt === 0n) {
      payment = roundDiv(principalUnits, BigInt(periods), rounding);
    } else {
      const divisor = gcd(rateDen + rateInt, rateDen);
      const num = (rateDen + rateInt) / divisor;
      const den = rateDen / divisor;
      assertPowerDigits(periods * (digitCount(num) + digitCount(den)), MAX_POWER_DIGITS, "periods");
      const numPower = num ** BigInt(periods);
      const denPower = den ** BigInt(periods);
      // payment = P · (num − den)/den · numPower / (numPower − denPower), in units of 10^-places.
      payment = roundDiv(
        principalUnits * (num - den) * numPower,
        den * (numPower - denPower),
        rounding,
      );
    }

    const schedule: Row[] = [];
    let balance = principalUnits;
    let totalPaid = 0n;
    let totalInterest = 0n;
    let lastPayment = payment;
    let paymentCount = 0;
    for (let period = 1; period <= periods && (period === 1 || balance > 0n); period++) {
      const interest = roundDiv(balance * rateInt, rateDen, rounding);
      // A payment rounded up, compounded over many periods, can repay the loan early.
      const owing = balance + interest;
      const paid = period === periods || payment > owing ? owing : payment;
      paymentCount = period;
      const repaid = paid - interest;
      balance -= repaid;
      totalPaid += paid;
      totalInterest += interest;
      lastPayment = paid;
      if (includeSchedule) {
        schedule.push({
          period,
          payment: fixed(paid, places),
          interest: fixed(interest, places),
          principal: fixed(repaid, places),
          balance: fixed(balance, places),
        });
      }
    }
    const paymentText = fixed(payment, places);
    return {
      payment: paymentText,
      paymentNumber: nearestDouble(new Exact(paymentText)),
      lastPayment: fixed(lastPayment, places),
      paymentCount,
      totalPaid: fixed(totalPaid, places),
      totalInterest: fixed(totalInterest, places),
      periodRate: periodRate.toFixed(),
      periods,
      frequency,
      schedule,
    };
  },
});
