import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import loanPayment from "./loan-payment.js";

type Answer = {
  payment: string;
  lastPayment: string;
  paymentCount: number;
  totalPaid: string;
  totalInterest: string;
  schedule: {
    period: number;
    payment: string;
    interest: string;
    principal: string;
    balance: string;
  }[];
};
const run = (input: Record<string, unknown>) => execute(loanPayment, input) as Answer;

describe("finance/loan-payment", () => {
  itAnswersItsExamples(loanPayment);

  // Expected figures computed independently with Python's fractions (exact rationals) and
  // the same rounding rules.
  it.each([
    // principal, rate, periods, frequency → payment, lastPayment, totalPaid
    ["10000", "6", 12, "monthly", "860.66", "860.70", "10327.96"],
    ["1000", "10", 3, "annually", "402.11", "402.13", "1206.35"],
    ["250000", "3.875", 360, "monthly", "1175.59", "1177.51", "423214.32"],
    ["1000", "0", 3, "monthly", "333.33", "333.34", "1000.00"],
  ])("%s at %s%% over %i %s: %s", (principal, rate, periods, frequency, payment, last, total) => {
    expect(run({ principal, rate, periods, frequency, includeSchedule: false })).toMatchObject({
      payment,
      lastPayment: last,
      totalPaid: total,
    });
  });

  it("keeps the schedule consistent: each row's parts add up and the balance ends at zero", () => {
    const answer = run({ principal: "123456.78", rate: "7.9", periods: 240 });
    let balance = 12345678n;
    let paid = 0n;
    let interest = 0n;
    const cents = (text: string) => BigInt(text.replace(".", ""));
    for (const row of answer.schedule) {
      expect(cents(row.payment)).toBe(cents(row.interest) + cents(row.principal));
      balance -= cents(row.principal);
      expect(cents(row.balance)).toBe(balance);
      paid += cents(row.payment);
      interest += cents(row.interest);
    }
    expect(balance).toBe(0n);
    expect(answer.schedule).toHaveLength(240);
    expect(cents(answer.totalPaid)).toBe(paid);
    expect(cents(answer.totalInterest)).toBe(interest);
  });

  it("rounds half up or half to even as asked", () => {
    // 100 over 8 payments at 0 %: 12.5 a payment, rounded to whole units.
    const input = {
      principal: "100",
      rate: "0",
      periods: 8,
      decimalPlaces: 0,
      includeSchedule: false,
    };
    expect(run(input).payment).toBe("12");
    expect(run({ ...input, rounding: "half-up" }).payment).toBe("13");
  });

  it("ends the schedule early when a payment rounded up repays the loan before the last period", () => {
    const answer = run({ principal: "1000", rate: "5.123456789012", periods: 1200 });
    expect(answer.payment).toBe("4.30");
    expect(answer.paymentCount).toBe(1164);
    expect(answer.schedule).toHaveLength(1164);
    expect(answer.schedule.at(-1)?.balance).toBe("0.00");
  });

  it("refuses a principal with more decimals than the currency has", () => {
    expect(
      locTypes(problemsOf(loanPayment, { principal: "10.005", rate: "5", periods: 3 })),
    ).toEqual([[["principal"], "value_error"]]);
  });

  it.each([
    [{ principal: "1000", rate: "5", periods: 0 }, ["periods"], "greater_than_equal"],
    [{ principal: "1000", rate: "5", periods: 1201 }, ["periods"], "less_than_equal"],
    [{ principal: "1000", rate: "-1", periods: 12 }, ["rate"], "greater_than_equal"],
    [
      { principal: "1000", rate: "5", periods: 12, decimalPlaces: 11 },
      ["decimalPlaces"],
      "less_than_equal",
    ],
  ])("refuses %j at %j", (input, loc, type) => {
    expect(locTypes(problemsOf(loanPayment, input))).toEqual([[loc, type]]);
  });

  it("refuses a power too long to compute exactly", () => {
    const input = { principal: "1000", rate: "1.2345678901234567890123456789", periods: 1200 };
    expect(locTypes(problemsOf(loanPayment, input))).toEqual([[["periods"], "value_error"]]);
  });

  it("declares an answer size that holds for the longest schedules", () => {
    for (const input of [
      { principal: "99999999999999999999.99", rate: "99.99", periods: 1200 },
      { principal: "1", rate: "1000000", periods: 1200, decimalPlaces: 10 },
      { principal: "1000", rate: "5", periods: 1200 },
    ]) {
      const parsed = loanPayment.input.parse(input);
      const cost = loanPayment.cost?.(parsed);
      const bytes = Buffer.byteLength(JSON.stringify(execute(loanPayment, input)));
      expect(bytes).toBeLessThanOrEqual(cost?.bytes ?? 0);
    }
  });
});
