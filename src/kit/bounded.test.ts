/** Division, roots and powers of `Exact`: exact when the answer is short, else bounded. */
import { describe, expect, it } from "vitest";
import { Exact } from "./decimal.js";
import { CalculationError, isCalculationError } from "./errors.js";

const third = `0.${"3".repeat(50)}`;
const plain = (value: Exact) => value.toFixed();

describe("Exact, bounded", () => {
  it.each([
    // expression, answer in plain notation
    ["1 / 3 (does not terminate: 50 digits)", () => new Exact(1).div(3), third],
    ["2 / 3, rounded half-even", () => new Exact(2).div(3), `0.${"6".repeat(49)}7`],
    ["1 / 8 (terminates: exact)", () => new Exact(1).div(8), "0.125"],
    ["static Exact.div", () => Exact.div(1, 3), third],
    [
      "a 60-digit quotient that terminates stays exact",
      () => new Exact(`1${"0".repeat(59)}1`).div(2),
      `5${"0".repeat(58)}0.5`,
    ],
    ["1e9999 / 7 (10,000 digits: rounded, not carried)", () => new Exact("1e9999").div(7).sd(), 50],
    ["sqrt 2", () => new Exact(2).sqrt(), "1.4142135623730950488016887242096980785696718753769"],
    [
      "sqrt of a 200-digit square is exact",
      () => new Exact(`${"9".repeat(100)}`).pow(2).sqrt(),
      "9".repeat(100),
    ],
    ["cbrt 27", () => new Exact(27).cbrt(), "3"],
    ["2^10", () => new Exact(2).pow(10), "1024"],
    ["2^-3", () => new Exact(2).pow(-3), "0.125"],
    ["3^-1", () => new Exact(3).pow(-1), third],
    ["2^0.5 (rounded)", () => new Exact(2).pow("0.5").sd(), 50],
    ["1^(10^20)", () => new Exact(1).pow("1e20"), "1"],
    ["ln 2 (rounded)", () => new Exact(2).ln().sd(), 50],
    ["hypot(3, 4)", () => Exact.hypot(3, 4), "5"],
    ["results are Exact", () => new Exact(1).div(3) instanceof Exact, true],
  ])("%s", (_what, compute, expected) => {
    const value = compute();
    expect(value instanceof Exact ? plain(value) : value).toEqual(expected);
  });

  it.each([
    ["2^(10^6)", () => new Exact(2).pow(1_000_000)],
    ["0.5^20000", () => new Exact("0.5").pow(20_000)],
    ["10^(10^20)", () => new Exact(10).pow("1e20")],
  ])("refuses %s before computing it", (_what, compute) => {
    const started = performance.now();
    expect(compute).toThrow(CalculationError);
    expect(performance.now() - started).toBeLessThan(50);
  });

  it("leaves addition, subtraction and multiplication exact", () => {
    expect(plain(new Exact("1e-9999").plus("1e9999")).length).toBe(20_000);
    expect(plain(new Exact(`${"9".repeat(3000)}`).times(`${"9".repeat(3000)}`)).length).toBe(6000);
  });

  it("leaves clones of Exact (and decimal.js) their own precision", () => {
    const Wide = Exact.clone({ precision: 80 });
    expect(new Wide(1).div(3).sd()).toBe(80);
  });

  it("errors are recognised by brand, whichever copy made them", () => {
    const foreign = {
      message: "x",
      [Symbol.for("utility-calculation-service.calculation-error")]: true,
    };
    expect(isCalculationError(foreign)).toBe(true);
    expect(isCalculationError(new Error("x"))).toBe(false);
  });
});
