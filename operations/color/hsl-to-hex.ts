import { defineOperation, z } from "#kit";
import { hslParams, RGB_FROM_HSL_RULES, rgbFromHsl, rgbFromHslFields } from "./_color.js";

export default defineOperation({
  area: "color",
  name: "hsl-to-hex",
  summary: "HSL (hue, saturation, lightness) to a hex color (#rrggbb)",
  description: [
    "Converts hue, saturation and lightness to a hex color `#rrggbb` (lowercase), with the " +
      "channels it rounds to; the same answer as `color/hsl-to-rgb`.",
    RGB_FROM_HSL_RULES,
  ].join("\n\n"),
  input: z.object(hslParams),
  output: z.object(rgbFromHslFields),
  examples: [
    {
      title: "hsl(210 50% 40%)",
      input: { h: "210", s: "50", l: "40" },
      output: {
        hex: "#336699",
        r: 51,
        g: 102,
        b: 153,
        exact: { r: "51", g: "102", b: "153" },
        css: "rgb(51 102 153)",
      },
    },
    {
      title: "Fractional inputs",
      input: { h: "200.5", s: "12.25", l: "87.5" },
      output: {
        hex: "#dbe0e3",
        r: 219,
        g: 224,
        b: 227,
        exact: { r: "219.2203125", g: "224.361484375", b: "227.0296875" },
        css: "rgb(219 224 227)",
      },
    },
  ],
  handler: ({ h, s, l }) => rgbFromHsl(h, s, l),
});
