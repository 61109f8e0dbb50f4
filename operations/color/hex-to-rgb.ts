import { defineOperation, z } from "#kit";
import { cssRgb, hexOf, hexParam, parseHex } from "./_color.js";

export default defineOperation({
  area: "color",
  name: "hex-to-rgb",
  summary: "Hex color (#rgb, #rrggbb) to RGB channels",
  description:
    "Reads a hex color, `#rrggbb` or the shorthand `#rgb` (each digit doubled: `#f80` is " +
    "`#ff8800`), in either case and with or without the `#`, and answers its red, green and " +
    "blue channels (0 to 255), its normalised `#rrggbb` (lowercase) and the CSS Color 4 " +
    "`rgb()` form. Exact: no rounding is involved. Forms with alpha (`#rgba`, `#rrggbbaa`), " +
    "other lengths and characters that are not hexadecimal digits are refused with a 422 at " +
    "`hex` naming the problem and its index. At most 16 characters.",
  input: z.object({ hex: hexParam() }),
  output: z.object({
    hex: z.string().describe("The color as `#rrggbb`, lowercase."),
    r: z.int().describe("Red, 0 to 255."),
    g: z.int().describe("Green, 0 to 255."),
    b: z.int().describe("Blue, 0 to 255."),
    css: z.string().describe("CSS Color 4 `rgb()`."),
  }),
  examples: [
    {
      title: "Six digits",
      input: { hex: "#336699" },
      output: { hex: "#336699", r: 51, g: 102, b: 153, css: "rgb(51 102 153)" },
    },
    {
      title: "Shorthand, upper case, no #",
      input: { hex: "F80" },
      output: { hex: "#ff8800", r: 255, g: 136, b: 0, css: "rgb(255 136 0)" },
    },
  ],
  handler: ({ hex }) => {
    const rgb = parseHex(hex);
    return { hex: hexOf(rgb), ...rgb, css: cssRgb(rgb) };
  },
});
