/**
 * Conversions between hex, RGB and HSL colors, exact where the arithmetic allows: sRGB
 * channels are integers 0-255, HSL is hue in degrees and saturation and lightness in
 * percent, as CSS Color 4 writes them.
 */
import { CalculationError, decimal, Exact, integer, toPlain, z } from "#kit";

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

export interface Hsl {
  h: Exact;
  s: Exact;
  l: Exact;
}

/**
 * HSL of integer channels: `l = (max + min) / 5.1`, `s = 100·(max − min) / (255 − |max +
 * min − 255|)`, the hue from the largest channel (0 when the channels are equal). Exact
 * where the quotient terminates; otherwise the kit's 50 significant digits.
 *
 * @example
 * rgbToHsl({ r: 51, g: 102, b: 153 }); // h 210, s 50, l 40
 */
export function rgbToHsl(rgb: Rgb): Hsl {
  const { r, g, b } = rgb;
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  const l = new Exact(10 * (max + min)).div(51);
  if (chroma === 0) return { h: new Exact(0), s: new Exact(0), l };
  const s = new Exact(100 * chroma).div(255 - Math.abs(max + min - 255));
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
  const h = new Exact(60 * sixths).div(chroma).plus(offset);
  return { h, s, l };
}

/** Rounded half up to `places`, as a number; a hue that rounds to 360 is 0. */
export function rounded(value: Exact, places: number, hue = false): number {
  const result = value.toDecimalPlaces(places, Exact.ROUND_HALF_UP);
  return hue && result.eq(360) ? 0 : result.toNumber();
}

/**
 * The exact channels of an HSL color, CSS Color 4's `hslToRgb`: every step terminates
 * (255/60 is 17/4), so the channels are exact decimals.
 *
 * @throws {CalculationError} at `h`, `s` or `l` when out of range or written with more
 * than {@link MAX_PLACES} decimal places
 */
export function hslToRgb(h: Exact, s: Exact, l: Exact): Record<keyof Rgb, Exact> {
  for (const [name, value] of [
    ["h", h],
    ["s", s],
    ["l", l],
  ] as const) {
    if (value.decimalPlaces() > MAX_PLACES) {
      throw new CalculationError(`${name} may have at most ${MAX_PLACES} decimal places`, [name]);
    }
  }
  if (h.abs().gt(MAX_HUE)) {
    throw new CalculationError(`h must be within ±${MAX_HUE} degrees`, ["h"]);
  }
  if (s.gt(100)) throw new CalculationError("s is a percentage: at most 100", ["s"]);
  if (l.gt(100)) throw new CalculationError("l is a percentage: at most 100", ["l"]);
  let hue = h.mod(360);
  if (hue.isNeg() && !hue.isZero()) hue = hue.plus(360);
  const saturation = s.div(100);
  const lightness = l.div(100);
  const chroma = new Exact(1).minus(lightness.times(2).minus(1).abs()).times(saturation);
  const sector = hue.div(60).floor().toNumber();
  const within = hue.minus(60 * sector);
  const rising = sector % 2 === 0 ? within : new Exact(60).minus(within);
  const base = lightness.minus(chroma.div(2)).times(255);
  const top = chroma.times(255).plus(base);
  // 255 · chroma · rising / 60, with 255/60 = 17/4.
  const middle = chroma.times(rising).times(17).div(4).plus(base);
  const orders: [Exact, Exact, Exact][] = [
    [top, middle, base],
    [middle, top, base],
    [base, top, middle],
    [base, middle, top],
    [middle, base, top],
    [top, base, middle],
  ];
  const [r, g, b] = orders[sector] ?? [top, middle, base];
  return { r, g, b };
}

/** Channels rounded to integers, halves up. */
export function roundChannels(exact: Record<keyof Rgb, Exact>): Rgb {
  const round = (value: Exact) => value.toDecimalPlaces(0, Exact.ROUND_HALF_UP).toNumber();
  return { r: round(exact.r), g: round(exact.g), b: round(exact.b) };
}

/** An HSL answer: the values rounded to `places`, exact as text, and the CSS form. */
export function hslAnswer(hsl: Hsl, places: number) {
  const h = rounded(hsl.h, places, true);
  const s = rounded(hsl.s, places);
  const l = rounded(hsl.l, places);
  return {
    h,
    s,
    l,
    exact: { h: toPlain(hsl.h), s: toPlain(hsl.s), l: toPlain(hsl.l) },
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

/** An RGB answer from HSL inputs. */
export function rgbFromHsl(h: Exact, s: Exact, l: Exact) {
  const exact = hslToRgb(h, s, l);
  const rgb = roundChannels(exact);
  return {
    hex: hexOf(rgb),
    ...rgb,
    exact: { r: toPlain(exact.r), g: toPlain(exact.g), b: toPlain(exact.b) },
    css: cssRgb(rgb),
  };
}

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
