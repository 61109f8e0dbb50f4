import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import compoundInterest from "./compound-interest.js";

const run = (input: Record<string, unknown>) =>
  execute(compoundInterest, input) as Record<string, unknown>;

describe("finance/compound-interest", () => {
  itAnswersItsExamples(compoundInterest);

  // Expected values computed independently with Python's fractions (exact) and decimal
  // (50 significant digits, half to even); doubles with float() of the exact fraction.
  it.each([
    [
      "2500.75",
      "4.25",
      "5",
      "quarterly",
      "3089.37780759052383745902191336883578517692801726633611994025320807856785920203054256021057977221744295093230903148651123046875",
      "588.62780759052383745902191336883578517692801726633611994025320807856785920203054256021057977221744295093230903148651123046875",
      true,
      3089.377807590524,
      588.6278075905238,
    ],
    [
      // 1 − 3/1200 = 399/400 terminates: exact, 424 decimals.
      "1",
      "-3",
      "10",
      "monthly",
      "0.740540002224026726105988077552125922485054499379760862077632218631449880782625166097172642387538321620000371338745423199263846147539784098413482971073796825366125018384683790177213454614163892357061461407725724849181327218655958173835399508469731211409554891606666550873356384633011630312395668205196628927305292690072591188220758366977792606569993419066398059240307511151555314087920991949229086738041032712981221762192813894787351801916354399057951241047703661024570465087890625",
      "-0.259459997775973273894011922447874077514945500620239137922367781368550119217374833902827357612461678379999628661254576800736153852460215901586517028926203174633874981615316209822786545385836107642938538592274275150818672781344041826164600491530268788590445108393333449126643615366988369687604331794803371072694707309927408811779241633022207393430006580933601940759692488848444685912079008050770913261958967287018778237807186105212648198083645600942048758952296338975429534912109375",
      true,
      0.7405400022240267,
      -0.2594599977759733,
    ],
    [
      "1",
      "-5",
      "10",
      "monthly",
      "0.60589742721683643339047083785994038243369357767126",
      "-0.39410257278316356660952916214005961756630642232874",
      false,
      0.6058974272168365,
      -0.3941025727831636,
    ],
    [
      "999.99",
      "7.125",
      "10",
      "weekly",
      "2038.0680287011592002673787752422421957869993361458",
      "1038.0780287011592002673787752422421957869993361458",
      false,
      2038.0680287011592,
      1038.0780287011592,
    ],
    [
      "5000",
      "0.01",
      "1",
      "daily",
      "5000.5000249323333663364883657846645906476135803472",
      "0.50002493233336633648836578466459064761358034720816",
      false,
      5000.500024932333,
      0.5000249323333663,
    ],
    ["100", "-50", "1.5", "semiannually", "42.1875", "-57.8125", true, 42.1875, -57.8125],
    ["1000", "-100", "2", "annually", "0", "-1000", true, 0, -1000],
    ["1000", "5", "0", "daily", "1000", "0", true, 1000, 0],
    ["0", "5", "3", "annually", "0", "0", true, 0, 0],
  ])(
    "P=%s r=%s%% t=%s %s",
    (principal, rate, years, compounding, amountDecimal, interestDecimal, isExact, amount, interest) => {
      expect(run({ principal, rate, years, compounding })).toMatchObject({
        amountDecimal,
        interestDecimal,
        isExact,
        amount,
        interest,
      });
    },
  );

  it("finishes quickly at its bounds", () => {
    for (const input of [
      {
        principal: "9".repeat(99),
        rate: "1.23456789012345678901234567890123456789",
        years: "1000",
        compounding: "daily",
      },
      {
        principal: "1",
        rate: "0.000000000000000000000000000001",
        years: "1000",
        compounding: "daily",
      },
      { principal: "1e90", rate: "1e90", years: "100" },
    ]) {
      const started = performance.now();
      execute(compoundInterest, input);
      expect(performance.now() - started).toBeLessThan(1000);
    }
  });

  it.each([
    [{ principal: "1000", rate: "5", years: "0.1", compounding: "monthly" }, ["years"]],
    [{ principal: "1000", rate: "5", years: "1001", compounding: "daily" }, ["years"]],
    [{ principal: "1000", rate: "-101", years: "1" }, ["rate"]],
    [{ principal: "1000", rate: "1e90", years: "1000" }, ["years"]],
    [{ principal: "1", rate: "-99.99999", years: "2000" }, ["rate"]],
  ])("refuses %j with a 422 at %j", (input, loc) => {
    expect(locTypes(problemsOf(compoundInterest, input))).toEqual([[loc, "value_error"]]);
  });

  it.each([
    [{ principal: "-1", rate: "5", years: "1" }, ["principal"]],
    [{ principal: "1", rate: "5", years: "-1" }, ["years"]],
  ])("refuses negative %j", (input, loc) => {
    expect(locTypes(problemsOf(compoundInterest, input))).toEqual([[loc, "greater_than_equal"]]);
  });
});
