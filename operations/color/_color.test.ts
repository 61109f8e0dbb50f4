/**
 * The HSL arithmetic in integers against the `Exact` (decimal.js) arithmetic it replaced,
 * kept here as the reference: every answer, `exact` text included, must be the same.
 */
import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { CalculationError, Exact, toPlain } from "#kit";
import { hexOf, hslAnswer, MAX_PLACES, type Rgb, rgbFromHsl } from "./_color.js";

const MAX_HUE = 1_000_000;

/** The former `rgbToHsl` + `hslAnswer`, in `Exact`. */
function referenceHslAnswer({ r, g, b }: Rgb, places: number) {
  const max = Math.max(r, g, b);
  const min = Math.min(r, g, b);
  const chroma = max - min;
  const l = new Exact(10 * (max + min)).div(51);
  let h = new Exact(0);
  let s = new Exact(0);
  if (chroma !== 0) {
    s = new Exact(100 * chroma).div(255 - Math.abs(max + min - 255));
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
    h = new Exact(60 * sixths).div(chroma).plus(offset);
  }
  const rounded = (value: Exact, hue = false) => {
    const result = value.toDecimalPlaces(places, Exact.ROUND_HALF_UP);
    return hue && result.eq(360) ? 0 : result.toNumber();
  };
  const [hr, sr, lr] = [rounded(h, true), rounded(s), rounded(l)];
  return {
    h: hr,
    s: sr,
    l: lr,
    exact: { h: toPlain(h), s: toPlain(s), l: toPlain(l) },
    css: `hsl(${hr} ${sr}% ${lr}%)`,
  };
}

/** The former `hslToRgb` + `roundChannels` + `rgbFromHsl`, in `Exact`. */
function referenceRgbFromHsl(h: Exact, s: Exact, l: Exact) {
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
  const middle = chroma.times(rising).times(17).div(4).plus(base);
  const orders: [Exact, Exact, Exact][] = [
    [top, middle, base],
    [middle, top, base],
    [base, top, middle],
    [base, middle, top],
    [middle, base, top],
    [top, base, middle],
  ];
  const [er, eg, eb] = orders[sector] ?? [top, middle, base];
  const round = (value: Exact) => value.toDecimalPlaces(0, Exact.ROUND_HALF_UP).toNumber();
  const rgb = { r: round(er), g: round(eg), b: round(eb) };
  return {
    hex: hexOf(rgb),
    ...rgb,
    exact: { r: toPlain(er), g: toPlain(eg), b: toPlain(eb) },
    css: `rgb(${rgb.r} ${rgb.g} ${rgb.b})`,
  };
}

/** What `run` answers or throws, as plain data (a -0 channel is JSON's 0). */
function outcome(run: () => unknown): unknown {
  try {
    return JSON.parse(JSON.stringify(run()));
  } catch (error) {
    if (!(error instanceof CalculationError)) throw error;
    return { refused: error.message, loc: error.loc };
  }
}

const channel = fc.nat(255);
const places = fc.integer({ min: 0, max: MAX_PLACES });

/** A decimal literal with 0 to `maxPlaces` places (trailing zeros kept, as clients write). */
function literal(integer: fc.Arbitrary<number>, maxPlaces = MAX_PLACES) {
  return fc
    .tuple(
      fc.boolean(),
      integer,
      fc.integer({ min: 0, max: maxPlaces }),
      fc.bigInt({ min: 0n, max: 10n ** BigInt(maxPlaces) - 1n }),
    )
    .map(([negative, whole, count, digits]) => {
      const fraction = digits.toString().padStart(maxPlaces, "0").slice(0, count);
      return `${negative ? "-" : ""}${whole}${count > 0 ? `.${fraction}` : ""}`;
    });
}

const hslOf = (h: string, s: string, l: string) =>
  [new Exact(h), new Exact(s), new Exact(l)] as const;

describe("hslAnswer", () => {
  it("answers what the Exact arithmetic did, for random channels and places", () => {
    fc.assert(
      fc.property(channel, channel, channel, places, (r, g, b, p) => {
        expect(hslAnswer({ r, g, b }, p)).toEqual(referenceHslAnswer({ r, g, b }, p));
      }),
      { seed: 20261127, numRuns: 4000 },
    );
  });

  it.each([
    [0, 0, 0], // gray: h and s 0, l 0
    [255, 255, 255], // l 100
    [1, 1, 1], // l 20/51, non-terminating
    [255, 0, 1], // hue 359.76…, rounds to 360 → 0 at 0 places
    [255, 1, 0], // hue 0.235…
    [240, 1, 0], // hue 0.25, a tie at one place
    [1, 0, 255], // hue 240.235…, offset 240 with a negative fraction
    [0, 255, 254], // hue 179.76…, offset 120 with a positive fraction
    [254, 255, 0], // hue 60.235…, offset 120 with a negative fraction
    [255, 0, 254], // hue 300.235…, offset 360 with a negative fraction
    [128, 0, 255], // sector 4
    [254, 0, 0], // s 100, l 49.80…
    [1, 0, 0], // s 100 from a chroma of 1
  ])("rgb(%i %i %i) at every places", (r, g, b) => {
    for (let p = 0; p <= MAX_PLACES; p++) {
      expect(hslAnswer({ r, g, b }, p)).toEqual(referenceHslAnswer({ r, g, b }, p));
    }
  });

  it("writes a non-terminating value to 50 significant digits, halves to even", () => {
    // 20/51: the 51st digit is 5 followed by more, so the 50th (9) stays.
    const gray = hslAnswer({ r: 1, g: 1, b: 1 }, 2).exact.l;
    expect(gray).toBe("0.39215686274509803921568627450980392156862745098039");
    // 10/51: …549019|6 rounds up to …549020, written without its trailing zero.
    expect(hslAnswer({ r: 1, g: 0, b: 0 }, 2).exact.l).toBe(
      "0.1960784313725490196078431372549019607843137254902",
    );
    // 6000/255 + 0 and 360 − 60/255: the offset added after the quotient's rounding.
    expect(hslAnswer({ r: 255, g: 100, b: 0 }, 2).exact.h).toBe(
      "23.529411764705882352941176470588235294117647058824",
    );
    expect(hslAnswer({ r: 255, g: 0, b: 1 }, 2).exact.h).toBe(
      "359.76470588235294117647058823529411764705882352941176",
    );
  });
});

describe("rgbFromHsl", () => {
  const same = (h: string, s: string, l: string) => {
    expect(outcome(() => rgbFromHsl(...hslOf(h, s, l)))).toEqual(
      outcome(() => referenceRgbFromHsl(...hslOf(h, s, l))),
    );
  };

  it("answers what the Exact arithmetic did, for 0 to 2 places (safe integers)", () => {
    fc.assert(
      fc.property(
        literal(fc.integer({ min: 0, max: 2_000 }), 2),
        literal(fc.integer({ min: 0, max: 100 }), 2),
        literal(fc.integer({ min: 0, max: 100 }), 2),
        (h, s, l) => {
          same(h, s.replace("-", ""), l.replace("-", ""));
        },
      ),
      { seed: 20261127, numRuns: 2000 },
    );
  });

  it("answers what the Exact arithmetic did, for up to 10 places (BigInt)", () => {
    fc.assert(
      fc.property(
        literal(fc.integer({ min: 0, max: MAX_HUE })),
        literal(fc.integer({ min: 0, max: 100 })),
        literal(fc.integer({ min: 0, max: 100 })),
        (h, s, l) => {
          same(h, s.replace("-", ""), l.replace("-", ""));
        },
      ),
      { seed: 20261127, numRuns: 2000 },
    );
  });

  it.each([
    ["0", "100", "50"],
    ["360", "100", "50"], // hue wraps to 0
    ["-360", "100", "50"],
    ["359.9999999999", "100", "50"], // just below the wrap, 10 places
    ["-0.0000000001", "100", "50"], // wraps to 359.9999999999
    ["-0", "100", "50"],
    ["1000000", "100", "50"], // the largest hue, 280°
    ["-1000000", "100", "50"],
    ["999999.9999999999", "33.3333333333", "66.6666666667"],
    ["59.9999999999", "100", "50"], // sector edges
    ["60", "100", "50"],
    ["119.99", "100", "50"],
    ["300.5", "100", "50"],
    ["200", "0", "37.5"], // s = 0: a gray
    ["200", "100", "0"], // l = 0: black
    ["200", "100", "100"], // l = 100: white
    ["200", "100", "100.0"],
    ["30", "100", "50"], // a channel of 127.5, rounded up
    ["0.0000000001", "0.0000000001", "0.0000000001"],
    ["12.5", "100.0000000000", "50.00"],
    ["1e2", "5E1", "2.5e1"],
  ])("hsl(%s %s%% %s%%)", same);

  it.each([
    ["0.00000000001", "0", "0"], // 11 places
    ["0", "0.00000000001", "0"],
    ["0", "0", "0.00000000001"],
    ["1e-11", "200", "200"], // places before range, h before s before l
    ["1000000.0000000001", "0", "0"],
    ["-1000000.0000000001", "0", "0"],
    ["1e7", "0", "0"],
    ["1e5000", "0", "0"],
    ["0", "100.0000000001", "0"],
    ["0", "1e3", "0"],
    ["0", "200", "200"],
    ["0", "0", "100.0000000001"],
    ["0", "0", "101"],
  ])("refuses hsl(%s %s%% %s%%) as before", same);
});
