import { defineOperation, z } from "#kit";
import { channelParam, HSL_RULES, hslAnswer, hslFields, placesParam } from "./_color.js";

export default defineOperation({
  area: "color",
  name: "rgb-to-hsl",
  summary: "RGB channels to HSL (hue, saturation, lightness)",
  description: [
    "Converts red, green and blue channels (integers 0 to 255) to hue, saturation and " +
      "lightness, with the CSS Color 4 `hsl()` form.",
    HSL_RULES,
  ].join("\n\n"),
  input: z.object({
    r: channelParam("red"),
    g: channelParam("green"),
    b: channelParam("blue"),
    places: placesParam(),
  }),
  output: z.object(hslFields),
  examples: [
    {
      title: "A color whose HSL is exact",
      input: { r: 51, g: 102, b: 153 },
      output: {
        h: 210,
        s: 50,
        l: 40,
        exact: { h: "210", s: "50", l: "40" },
        css: "hsl(210 50% 40%)",
      },
    },
    {
      title: "Orange, rounded to one place",
      input: { r: 255, g: 128, b: 0, places: 1 },
      output: {
        h: 30.1,
        s: 100,
        l: 50,
        exact: { h: "30.117647058823529411764705882352941176470588235294", s: "100", l: "50" },
        css: "hsl(30.1 100% 50%)",
      },
    },
  ],
  handler: ({ r, g, b, places }) => hslAnswer({ r, g, b }, places),
});
