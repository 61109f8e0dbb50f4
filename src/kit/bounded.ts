/**
 * Division, roots, powers and the transcendental functions of {@link Exact}, bounded.
 *
 * `Exact` keeps a precision of 10^9 digits so that `plus`, `minus` and `times` are always
 * exact; decimal.js would carry a non-terminating quotient (`1/3`) or a root to that many
 * digits and run the process out of memory. These methods replace decimal.js's on
 * `Exact`'s prototype only (its clones, and plain decimal.js, are left alone):
 *
 * - `div`: the exact quotient when it terminates within {@link MAX_EXACT_DIGITS}
 *   significant digits, otherwise the quotient correctly rounded to {@link ROUNDED_DIGITS};
 * - `sqrt`, `cbrt`: the exact root when it has at most {@link MAX_EXACT_ROOT_DIGITS}
 *   significant digits, otherwise rounded likewise;
 * - `pow`: exact for an integer exponent, refused with a `CalculationError` before any work
 *   when the power would need more than {@link MAX_EXACT_DIGITS} digits; rounded for any
 *   other exponent;
 * - `exp`, `ln`, `log`, trigonometric and hyperbolic functions: rounded.
 *
 * Every result is an `Exact`, and the work each call does is bounded by those digit counts.
 */
import { Decimal as DecimalJs } from "decimal.js";
import { CalculationError } from "./errors.js";

/** Significant digits of a result that cannot be exact (`1/3`, `√2`, `ln 2`). */
export const ROUNDED_DIGITS = 50;
/** The longest quotient or power computed exactly (as many as a result may have). */
export const MAX_EXACT_DIGITS = 10_000;
/** The longest root looked for exactly: finding a 5,000-digit one would take 0.25 s. */
export const MAX_EXACT_ROOT_DIGITS = 1_000;

type DecimalCtor = typeof DecimalJs;
type Value = DecimalJs.Value;

const RANGE = { toExpNeg: -9e15, toExpPos: 9e15, minE: -9e15, maxE: 9e15 };
const Rounded = DecimalJs.clone({
  precision: ROUNDED_DIGITS,
  rounding: DecimalJs.ROUND_HALF_EVEN,
  ...RANGE,
});
const P = DecimalJs.prototype;

const byPrecision = new Map<number, DecimalCtor>();
/** A constructor rounding to `digits` (cached: at most MAX_EXACT_DIGITS of them). */
function precise(digits: number): DecimalCtor {
  let Ctor = byPrecision.get(digits);
  if (Ctor === undefined) {
    Ctor = DecimalJs.clone({ precision: digits, rounding: DecimalJs.ROUND_HALF_EVEN, ...RANGE });
    byPrecision.set(digits, Ctor);
  }
  return Ctor;
}

/** log10 |x| for any finite non-zero x, even far outside the double range. */
function log10Abs(x: DecimalJs): number {
  const [mantissa = "1", exponent = "0"] = x
    .abs()
    .toSignificantDigits(17)
    .toExponential()
    .split("e");
  return Math.log10(Number(mantissa)) + Number(exponent);
}

/**
 * Replaces `Exact`'s prototype with one whose division, roots and powers are bounded, and
 * its static helpers that would otherwise work at `Exact`'s own precision.
 */
export function boundInexactArithmetic(Exact: DecimalCtor): void {
  const exact = (value: Value) => new Exact(value);
  /** `compute` on `x` at `Rounded`'s precision, as an `Exact`. */
  const rounded = (compute: (x: DecimalJs) => DecimalJs) => (x: DecimalJs) =>
    exact(compute(new Rounded(x)));

  function dividedBy(this: DecimalJs, y: Value): DecimalJs {
    const divisor = exact(y);
    if (!this.isFinite() || !divisor.isFinite() || this.isZero() || divisor.isZero()) {
      return exact(P.dividedBy.call(new Rounded(this), new Rounded(divisor)));
    }
    // A terminating quotient needs at most sd(a) + log10(5)/log10(2) · sd(b) + 1 digits
    // (b's mantissa is then 2^i·5^j, and i, j ≤ sd(b)/log10(2)): no need to go further.
    const digits = Math.min(MAX_EXACT_DIGITS, this.sd() + Math.ceil(2.33 * divisor.sd()) + 2);
    if (digits > ROUNDED_DIGITS) {
      const Wide = precise(digits);
      const wide = exact(P.dividedBy.call(new Wide(this), new Wide(divisor)));
      if (wide.times(divisor).eq(this)) return wide;
    }
    return exact(P.dividedBy.call(new Rounded(this), new Rounded(divisor)));
  }

  /** The `degree`-th root (2 or 3): exact when it terminates, else rounded. */
  function root(x: DecimalJs, degree: 2 | 3): DecimalJs {
    const take = (X: DecimalCtor) => (degree === 2 ? new X(x).sqrt() : new X(x).cbrt());
    if (!x.isFinite() || x.isZero() || (degree === 2 && x.isNegative()))
      return exact(take(Rounded));
    // A terminating root of x has at most about sd(x)/degree + 1 significant digits.
    const digits = Math.ceil(x.sd() / degree) + 2;
    if (digits > ROUNDED_DIGITS && digits <= MAX_EXACT_ROOT_DIGITS) {
      const candidate = exact(take(precise(digits)));
      if (
        (degree === 2
          ? candidate.times(candidate)
          : candidate.times(candidate).times(candidate)
        ).eq(x)
      ) {
        return candidate;
      }
    }
    // Correctly rounded at ROUNDED_DIGITS; exact whenever the root is that short.
    return exact(take(Rounded));
  }

  function toPower(this: DecimalJs, y: Value): DecimalJs {
    const exponent = exact(y);
    if (!exponent.isInteger() || !this.isFinite() || this.isZero() || this.abs().eq(1)) {
      return exact(P.toPower.call(new Rounded(this), new Rounded(exponent)));
    }
    const k = exponent.abs().toNumber();
    // Digits of x^k in plain notation: k × (integer digits of x, as log10) + k × its decimals.
    const digits = k * (Math.max(log10Abs(this), 0) + this.decimalPlaces());
    if (!(digits <= MAX_EXACT_DIGITS + 1)) {
      throw new CalculationError(
        `the power needs about ${Number.isFinite(digits) ? Math.ceil(digits) : "infinitely many"} digits, more than the limit of ${MAX_EXACT_DIGITS}`,
      );
    }
    const power = exact(P.toPower.call(this, k));
    return exponent.isNegative() ? exact(1).div(power) : power;
  }

  function logarithm(this: DecimalJs, base?: Value): DecimalJs {
    return exact(
      P.logarithm.call(new Rounded(this), base === undefined ? undefined : new Rounded(base)),
    );
  }

  const methods: Record<string, (this: DecimalJs, ...args: never[]) => DecimalJs> = {
    dividedBy,
    div: dividedBy,
    squareRoot(this: DecimalJs) {
      return root(this, 2);
    },
    cubeRoot(this: DecimalJs) {
      return root(this, 3);
    },
    toPower,
    pow: toPower,
    logarithm,
    log: logarithm,
  };
  methods.sqrt = methods.squareRoot as (typeof methods)[string];
  methods.cbrt = methods.cubeRoot as (typeof methods)[string];
  // Transcendental functions never terminate: always rounded.
  const transcendental = [
    ["naturalExponential", "exp"],
    ["naturalLogarithm", "ln"],
    ["sine", "sin"],
    ["cosine", "cos"],
    ["tangent", "tan"],
    ["inverseSine", "asin"],
    ["inverseCosine", "acos"],
    ["inverseTangent", "atan"],
    ["hyperbolicSine", "sinh"],
    ["hyperbolicCosine", "cosh"],
    ["hyperbolicTangent", "tanh"],
    ["inverseHyperbolicSine", "asinh"],
    ["inverseHyperbolicCosine", "acosh"],
    ["inverseHyperbolicTangent", "atanh"],
  ] as const;
  for (const [long, short] of transcendental) {
    const compute = rounded((x) => (P[long] as (this: DecimalJs) => DecimalJs).call(x));
    methods[long] = methods[short] = function (this: DecimalJs) {
      return compute(this);
    };
  }

  const prototype = Object.create(P) as DecimalJs;
  for (const [name, method] of Object.entries(methods)) {
    Object.defineProperty(prototype, name, { value: method, writable: true, configurable: true });
  }
  Exact.prototype = prototype;

  // Static helpers that compute at the constructor's own precision rather than through
  // the methods above.
  const statics = Exact as unknown as Record<string, unknown>;
  statics.atan2 = (y: Value, x: Value) => exact(Rounded.atan2(y, x));
  statics.hypot = (...values: Value[]) => exact(Rounded.hypot(...values));
  statics.random = (significantDigits: number = ROUNDED_DIGITS) =>
    exact(Rounded.random(Math.min(significantDigits, MAX_EXACT_DIGITS)));
}
