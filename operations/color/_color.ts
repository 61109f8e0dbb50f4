/**
 * Conversions between hex, RGB and HSL colors, exact where the arithmetic allows: sRGB
 * channels are integers 0-255, HSL is hue in degrees and saturation and lightness in
 * percent, as CSS Color 4 writes them.
 */
import { CalculationError, decimal, type Exact, integer, ROUNDED_DIGITS, z } from "#kit";

/** Decimal places accepted in an HSL input and offered for an HSL answer. */
export const MAX_PLACES = 10;
/** Largest hue magnitude accepted before it is taken modulo 360. */
const MAX_HUE = 1_000_000;

export interface Rgb {
  r: number;
  g: number;
  b: number;
}

/** A channel parameter: an integer 0 to 255. */
export function channelParam(name: string) {
  return integer({ min: 0, max: 255, description: `The ${name} channel, 0 to 255.` });
}

/** The `hex` parameter. */
export function hexParam() {
  return z
    .string()
    .min(1)
    .max(16)
    .describe("The color: `#rgb` or `#rrggbb`, either case; the `#` may be left out.");
}

/** The `places` parameter of the answers in HSL. */
export function placesParam() {
  return integer({
    min: 0,
    max: MAX_PLACES,
    description: `Decimal places of \`h\`, \`s\` and \`l\` (0 to ${MAX_PLACES}, default 2), rounded half up.`,
  }).default(2);
}

/** The HSL parameters. */
export const hslParams = {
  h: decimal({
    description: `Hue in degrees; any value from −${MAX_HUE} to ${MAX_HUE}, taken modulo 360.`,
  }),
  s: decimal({ min: "0", description: "Saturation in percent, 0 to 100." }),
  l: decimal({ min: "0", description: "Lightness in percent, 0 to 100." }),
};

const HEX_DIGIT = /[0-9a-fA-F]/;

/**
 * The channels of a hex color: `#rgb` or `#rrggbb`, either case, `#` optional.
 *
 * @throws {CalculationError} at `hex`, naming where the text goes wrong
 */
export function parseHex(text: string): Rgb {
  const offset = text.startsWith("#") ? 1 : 0;
  const digits = text.slice(offset);
  for (let i = 0; i < digits.length; i++) {
    if (!HEX_DIGIT.test(digits.charAt(i))) {
      throw new CalculationError(
        `the character '${String.fromCodePoint(digits.codePointAt(i) ?? 0)}' at index ${offset + i} is not a hexadecimal digit`,
        ["hex"],
      );
    }
  }
  if (digits.length !== 3 && digits.length !== 6) {
    const alpha =
      digits.length === 4 || digits.length === 8 ? " (forms with alpha are not accepted)" : "";
    throw new CalculationError(
      `a color has 3 or 6 hexadecimal digits, not ${digits.length}${alpha}`,
      ["hex"],
    );
  }
  const full = digits.length === 3 ? [...digits].map((digit) => digit + digit).join("") : digits;
  const value = Number.parseInt(full, 16);
  return { r: value >> 16, g: (value >> 8) & 255, b: value & 255 };
}

const pair = (channel: number) => channel.toString(16).padStart(2, "0");

/** `#rrggbb`, lowercase. */
export function hexOf({ r, g, b }: Rgb): string {
  return `#${pair(r)}${pair(g)}${pair(b)}`;
}

/** `#rgb` when every channel's two digits are the same, else `null`. */
export function shortHexOf(rgb: Rgb): string | null {
  const hex = hexOf(rgb);
  return hex[1] === hex[2] && hex[3] === hex[4] && hex[5] === hex[6]
    ? `#${hex[1]}${hex[3]}${hex[5]}`
    : null;
}

/** `rgb(r g b)`, CSS Color 4's space-separated form. */
export function cssRgb({ r, g, b }: Rgb): string {
  return `rgb(${r} ${g} ${b})`;
}

/**
 * Significant digits of a non-terminating quotient in `exact`: the kit's `Exact` division
 * rounds to these, and every `exact` answer here is what it gave.
 */
const SIGNIFICANT = ROUNDED_DIGITS;
/** Fraction digits of the last {@link divide}: at most 50 significant, after a few zeros. */
const FRACTION = new Uint8Array(SIGNIFICANT + 8);
let fractionLength = 0;

/** Decimal digits of a positive integer. */
const digitCount = (n: number) => (n < 10 ? 1 : n < 100 ? 2 : n < 1_000 ? 3 : String(n).length);

/**
 * `n / d` (small non-negative integers, `d > 0`) as `Exact`'s division answers it: exact
 * when it terminates within 50 significant digits, otherwise rounded half to even to 50.
 * Answers the integer part; the fraction's digits are left in {@link FRACTION}, without
 * trailing zeros. Long division in integers: the quotients here have denominators like 51.
 */
function divide(n: number, d: number): number {
  let rest = n % d;
  let integer = (n - rest) / d;
  let significant = integer === 0 ? 0 : digitCount(integer);
  let length = 0;
  while (rest !== 0) {
    rest *= 10;
    const digit = Math.floor(rest / d);
    rest -= digit * d;
    if (significant === SIGNIFICANT) {
      // The first digit dropped: a tie (exactly 5, nothing after) goes to the even digit.
      const odd = (length > 0 ? (FRACTION[length - 1] as number) : integer) % 2 === 1;
      if (digit > 5 || (digit === 5 && (rest !== 0 || odd))) {
        let at = length - 1;
        while (at >= 0 && FRACTION[at] === 9) FRACTION[at--] = 0;
        if (at >= 0) FRACTION[at] = (FRACTION[at] as number) + 1;
        else integer++;
      }
      break;
    }
    FRACTION[length++] = digit;
    if (significant > 0 || digit !== 0) significant++;
  }
  while (length > 0 && FRACTION[length - 1] === 0) length--;
  fractionLength = length;
  return integer;
}

/** The integer part and `FRACTION` as plain decimal text. */
function decimalText(integer: number, negative: boolean): string {
  let text = negative ? `-${integer}` : String(integer);
  if (fractionLength === 0) return text;
  text += ".";
  for (let i = 0; i < fractionLength; i++) text += FRACTION[i];
  return text;
}

/**
 * `n / d + offset` as `Exact` computes it: the quotient rounded as {@link divide} says, then
 * the integer `offset` added exactly; `offset` is 0 or at least |n / d|.
 */
function quotientText(n: number, d: number, offset = 0): string {
  const integer = divide(Math.abs(n), d);
  if (n >= 0 || offset === 0) return decimalText(integer + offset, n < 0 && offset === 0);
  if (fractionLength === 0) return String(offset - integer);
  // offset − integer.f…: the fraction's ten's complement (its last digit is not 0).
  for (let i = 0; i < fractionLength - 1; i++) FRACTION[i] = 9 - (FRACTION[i] as number);
  FRACTION[fractionLength - 1] = 10 - (FRACTION[fractionLength - 1] as number);
  return decimalText(offset - integer - 1, false);
}

const POWERS_OF_TEN = [1, 1e1, 1e2, 1e3, 1e4, 1e5, 1e6, 1e7, 1e8, 1e9, 1e10, 1e11, 1e12];

/**
 * `n / d` (non-negative) rounded half up to `places`, as the nearest double. Rounding the
 * 50-digit `exact` instead gives the same: a quotient with a denominator up to 510 that
 * is not a tie at 10 places is more than 1e-13 from one, its rounding error under 1e-46.
 */
function roundedQuotient(n: number, d: number, places: number): number {
  // floor(n·10^p / d + 1/2), all below 2^53 for n ≤ 91,800 and p ≤ 10.
  const twice = 2 * n * (POWERS_OF_TEN[places] as number) + d;
  const rounded = (twice - (twice % (2 * d))) / (2 * d);
  // Both exact doubles, so the quotient is the double nearest m / 10^p, as Number() reads it.
  return rounded / (POWERS_OF_TEN[places] as number);
}

/**
 * An HSL answer for integer channels: the values rounded half up to `places`, exact as
 * text, and the CSS form. `l = (max + min) / 5.1`, `s = 100·(max − min) / (255 − |max +
 * min − 255|)`, the hue from the largest channel (0 when the channels are equal); each a
 * fraction of small integers, written exact where it terminates, otherwise to 50
 * significant digits (the hue's fraction part first, then its sector's offset added).
 *
 * @example
 * hslAnswer({ r: 51, g: 102, b: 153 }, 2); // h 210, s 50, l 40, exact "210", "50", "40"
 */
export function hslAnswer({ r, g, b }: Rgb, places: number) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  const lNumerator = 10 * (max + min);
  const lText = quotientText(lNumerator, 51);
  const l = roundedQuotient(lNumerator, 51, places);
  if (chroma === 0) {
    return { h: 0, s: 0, l, exact: { h: "0", s: "0", l: lText }, css: `hsl(0 0% ${l}%)` };
  }
  const sNumerator = 100 * chroma;
  const sDenominator = 255 - Math.abs(max + min - 255);
  let sixths: number;
  let offset: number;
  if (max === r) {
    sixths = g - b;
    offset = g < b ? 360 : 0;
  } else if (max === g) {
    sixths = b - r;
    offset = 120;
  } else {
    sixths = r - g;
    offset = 240;
  }
  const hRounded = roundedQuotient(60 * sixths + offset * chroma, chroma, places);
  // A hue that rounds to 360 is 0.
  const h = hRounded === 360 ? 0 : hRounded;
  const s = roundedQuotient(sNumerator, sDenominator, places);
  return {
    h,
    s,
    l,
    exact: {
      h: quotientText(60 * sixths, chroma, offset),
      s: quotientText(sNumerator, sDenominator),
      l: lText,
    },
    css: `hsl(${h} ${s}% ${l}%)`,
  };
}

/** The output fields of an HSL answer. */
export const hslFields = {
  h: z.number().describe("Hue in degrees, [0, 360), rounded half up to `places`."),
  s: z.number().describe("Saturation in percent, rounded half up to `places`."),
  l: z.number().describe("Lightness in percent, rounded half up to `places`."),
  exact: z
    .object({ h: z.string(), s: z.string(), l: z.string() })
    .describe(
      "The same before rounding, as decimals: exact when they terminate, otherwise rounded half to even to 50 significant digits.",
    ),
  css: z.string().describe("CSS Color 4 `hsl()` of the rounded values."),
};

/** The output fields of an RGB answer from HSL. */
export const rgbFromHslFields = {
  hex: z.string().describe("`#rrggbb`, lowercase, of the rounded channels."),
  r: z.int().describe("Red, 0 to 255, rounded half up."),
  g: z.int().describe("Green, 0 to 255, rounded half up."),
  b: z.int().describe("Blue, 0 to 255, rounded half up."),
  exact: z
    .object({ r: z.string(), g: z.string(), b: z.string() })
    .describe("The channels before rounding, exact decimals."),
  css: z.string().describe("CSS Color 4 `rgb()` of the rounded channels."),
};

/** A decimal input read as `sign`, integer part and fraction × 10^10 (see {@link readWithin}). */
let partSign = 1;
let partInteger = 0;
let partFraction = 0;

/**
 * Whether |`value`| ≤ `max` (an integer below 10^7), reading its parts when it is: from
 * decimal.js's own, words of 7 digits base 10^7, the first holding the digits down to a
 * place that is a multiple of 7, `e` the power of ten of the first digit. `value` has at
 * most 10 places.
 */
function readWithin(value: Exact, max: number): boolean {
  // Below 10^7 before the words are read, so that the parts are safe integers.
  if (value.e > 6) return false;
  const words = value.d;
  const top = Math.floor(value.e / 7);
  let integer = 0;
  let fraction = 0;
  for (let i = 0; i < words.length; i++) {
    const unit = top - i;
    const word = words[i] as number;
    if (unit === 0) integer = word;
    else if (unit === -1) fraction += word * 1_000;
    // Digits 10^-8 to 10^-14, of which at most 10^-10 is not zero.
    else fraction += word / 10_000;
  }
  partSign = value.s;
  partInteger = integer;
  partFraction = fraction;
  return integer < max || (integer === max && fraction === 0);
}

/** The part just read scaled to `places` decimals: an integer, of magnitude below 10^12. */
const scaledPart = (places: number) =>
  partInteger * (POWERS_OF_TEN[places] as number) +
  partFraction / (POWERS_OF_TEN[MAX_PLACES - places] as number);

/** Exact channels, each `value / 10^places`. */
interface ScaledChannels {
  r: number | bigint;
  g: number | bigint;
  b: number | bigint;
  places: number;
}

/**
 * CSS Color 4's `hslToRgb` in integers. With every input scaled to `p` places (`H` the hue
 * in [0, 360), `S`, `L` in percent, each × 10^p), `A = 10^(p+2) − |2L − 10^(p+2)|` is
 * 10^(p+2) × (1 − |2l − 1|), the chroma is `A·S / 10^(2p+4)`, and over 10^(3p+6) the
 * channels are `base = 255·(2L·10^(p+2) − A·S)·5·10^(p+1)`, `top = 255·(2L·10^(p+2) + A·S)
 * ·5·10^(p+1)` and `middle = 425·A·S·R + base` (255/60 = 17/4; R the hue's rise within its
 * sector × 10^p): all exact. Safe integers when p ≤ 2 (below 4·10^14), BigInt beyond.
 */
function channelsOf(hue: number, s: number, l: number, places: number): ScaledChannels {
  const sixty = 60 * (POWERS_OF_TEN[places] as number);
  const within = hue % sixty;
  const sector = (hue - within) / sixty;
  const rising = sector % 2 === 0 ? within : sixty - within;
  const whole = POWERS_OF_TEN[places + 2] as number;
  const a = whole - Math.abs(2 * l - whole);
  let base: number | bigint;
  let top: number | bigint;
  let middle: number | bigint;
  if (places <= 2) {
    const as = a * s;
    const scale = 1_275 * (POWERS_OF_TEN[places + 1] as number);
    base = (2 * l * whole - as) * scale;
    top = (2 * l * whole + as) * scale;
    middle = 425 * as * rising + base;
  } else {
    const as = BigInt(a) * BigInt(s);
    const twiceL = 2n * BigInt(l) * BigInt(whole);
    const scale = 1_275n * BigInt(POWERS_OF_TEN[places + 1] as number);
    base = (twiceL - as) * scale;
    top = (twiceL + as) * scale;
    middle = 425n * as * BigInt(rising) + base;
  }
  const scaled = 3 * places + 6;
  switch (sector) {
    case 0:
      return { r: top, g: middle, b: base, places: scaled };
    case 1:
      return { r: middle, g: top, b: base, places: scaled };
    case 2:
      return { r: base, g: top, b: middle, places: scaled };
    case 3:
      return { r: base, g: middle, b: top, places: scaled };
    case 4:
      return { r: middle, g: base, b: top, places: scaled };
    default:
      return { r: top, g: base, b: middle, places: scaled };
  }
}

/** `value / 10^places` (non-negative) as plain decimal text, without trailing zeros. */
function scaledText(value: number | bigint, places: number): string {
  // A safe integer prints all its digits (below 10^21, no exponent).
  const digits = value.toString();
  if (digits === "0") return digits;
  const padded = digits.length > places ? digits : digits.padStart(places + 1, "0");
  const point = padded.length - places;
  let end = padded.length;
  while (end > point && padded.charCodeAt(end - 1) === 48 /* 0 */) end--;
  return end === point
    ? padded.slice(0, point)
    : `${padded.slice(0, point)}.${padded.slice(point, end)}`;
}

/** `value / 10^places` (non-negative) rounded to an integer, halves up. */
function roundedScaled(value: number | bigint, places: number): number {
  if (typeof value === "bigint") {
    const unit = 10n ** BigInt(places);
    return Number((value + unit / 2n) / unit);
  }
  const unit = POWERS_OF_TEN[places] as number;
  const shifted = value + unit / 2;
  return (shifted - (shifted % unit)) / unit;
}

/**
 * An RGB answer from HSL inputs: CSS Color 4's `hslToRgb`, whose every step terminates
 * (255/60 is 17/4), so the channels are exact decimals; `r`, `g`, `b` round them half up.
 *
 * @throws {CalculationError} at `h`, `s` or `l` when out of range or written with more
 * than {@link MAX_PLACES} decimal places
 */
export function rgbFromHsl(h: Exact, s: Exact, l: Exact) {
  const hPlaces = h.decimalPlaces();
  if (hPlaces > MAX_PLACES) throw tooManyPlaces("h");
  const sPlaces = s.decimalPlaces();
  if (sPlaces > MAX_PLACES) throw tooManyPlaces("s");
  const lPlaces = l.decimalPlaces();
  if (lPlaces > MAX_PLACES) throw tooManyPlaces("l");
  const places = Math.max(hPlaces, sPlaces, lPlaces);
  if (!readWithin(h, MAX_HUE)) {
    throw new CalculationError(`h must be within ±${MAX_HUE} degrees`, ["h"]);
  }
  // Modulo 360 on the integer part first: h × 10^10 may pass 2^53.
  const hMagnitude =
    (partInteger % 360) * (POWERS_OF_TEN[places] as number) +
    partFraction / (POWERS_OF_TEN[MAX_PLACES - places] as number);
  const hue =
    partSign < 0 && hMagnitude !== 0
      ? 360 * (POWERS_OF_TEN[places] as number) - hMagnitude
      : hMagnitude;
  if (!readWithin(s, 100)) {
    throw new CalculationError("s is a percentage: at most 100", ["s"]);
  }
  const saturation = scaledPart(places);
  if (!readWithin(l, 100)) {
    throw new CalculationError("l is a percentage: at most 100", ["l"]);
  }
  const exact = channelsOf(hue, saturation, scaledPart(places), places);
  const rgb = {
    r: roundedScaled(exact.r, exact.places),
    g: roundedScaled(exact.g, exact.places),
    b: roundedScaled(exact.b, exact.places),
  };
  return {
    hex: hexOf(rgb),
    ...rgb,
    exact: {
      r: scaledText(exact.r, exact.places),
      g: scaledText(exact.g, exact.places),
      b: scaledText(exact.b, exact.places),
    },
    css: cssRgb(rgb),
  };
}

const tooManyPlaces = (name: string) =>
  new CalculationError(`${name} may have at most ${MAX_PLACES} decimal places`, [name]);

/** What the HSL conversions say about their arithmetic. */
export const HSL_RULES =
  "HSL is CSS Color 4's: hue in degrees, saturation and lightness in percent. From RGB, " +
  "`l = (max + min) / 5.1`, `s = 100·(max − min) / (255 − |max + min − 255|)` (0 for a " +
  "gray), and the hue from the largest channel (0 for a gray). These are fractions with " +
  "denominators such as 51: `exact` gives each as a decimal (exact when it terminates, " +
  "otherwise rounded half to even to 50 significant digits, far from any tie), and `h`, " +
  "`s`, `l` round it half up to `places` decimals (default 2; a hue that rounds to 360 is 0).";

/** What the RGB-from-HSL conversions say about their arithmetic. */
export const RGB_FROM_HSL_RULES =
  "HSL is CSS Color 4's (its `hslToRgb`): hue in degrees, taken modulo 360 (within " +
  "±1,000,000), saturation and lightness in percent, 0 to 100 (not clamped: outside is a " +
  "422), each with at most 10 decimal places. Every step of the conversion terminates " +
  "(255/60 is 17/4), so `exact` gives the channels exactly; `r`, `g`, `b` and `hex` round " +
  "them to integers, halves up.";
