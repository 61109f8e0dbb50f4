import { defineOperation, z } from "#kit";
import {
  HSL_RULES,
  hexOf,
  hexParam,
  hslAnswer,
  hslFields,
  parseHex,
  placesParam,
} from "./_color.js";

export default defineOperation({
  area: "color",
  name: "hex-to-hsl",
  summary: "Hex color (#rgb, #rrggbb) to HSL (hue, saturation, lightness)",
  description: [
    "Reads a hex color as `color/hex-to-rgb` does (`#rrggbb` or `#rgb`, either case, `#` " +
      "optional; alpha forms and other lengths are a 422 at `hex`) and converts it to hue, " +
      "saturation and lightness as `color/rgb-to-hsl` does, with the normalised `hex`.",
    HSL_RULES,
  ].join("\n\n"),
  input: z.object({ hex: hexParam(), places: placesParam() }),
  output: z.object({
    hex: z.string().describe("The color as `#rrggbb`, lowercase."),
    ...hslFields,
  }),
  examples: [
    {
      title: "A color whose HSL is exact",
      input: { hex: "#369" },
      output: {
        hex: "#336699",
        h: 210,
        s: 50,
        l: 40,
        exact: { h: "210", s: "50", l: "40" },
        css: "hsl(210 50% 40%)",
      },
    },
    {
      title: "Rounded to whole numbers",
      input: { hex: "1e90ff", places: 0 },
      output: {
        hex: "#1e90ff",
        h: 210,
        s: 100,
        l: 56,
        exact: {
          h: "209.6",
          s: "100",
          l: "55.882352941176470588235294117647058823529411764706",
        },
        css: "hsl(210 100% 56%)",
      },
    },
  ],
  handler: ({ hex, places }) => {
    const rgb = parseHex(hex);
    return { hex: hexOf(rgb), ...hslAnswer(rgb, places) };
  },
});
