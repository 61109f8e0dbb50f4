import { defineOperation, z } from "#kit";
import { hslParams, RGB_FROM_HSL_RULES, rgbFromHsl, rgbFromHslFields } from "./_color.js";

export default defineOperation({
  area: "color",
  name: "hsl-to-rgb",
  summary: "HSL (hue, saturation, lightness) to RGB channels",
  description: [
    "Converts hue, saturation and lightness to red, green and blue channels, with the hex " +
      "color and the CSS Color 4 `rgb()` form.",
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
      title: "Channels between integers are rounded half up",
      input: { h: "30", s: "100", l: "50" },
      output: {
        hex: "#ff8000",
        r: 255,
        g: 128,
        b: 0,
        exact: { r: "255", g: "127.5", b: "0" },
        css: "rgb(255 128 0)",
      },
    },
    {
      title: "A negative hue is taken modulo 360",
      input: { h: "-120", s: "100", l: "25" },
      output: {
        hex: "#000080",
        r: 0,
        g: 0,
        b: 128,
        exact: { r: "0", g: "0", b: "127.5" },
        css: "rgb(0 0 128)",
      },
    },
  ],
  handler: ({ h, s, l }) => rgbFromHsl(h, s, l),
});
