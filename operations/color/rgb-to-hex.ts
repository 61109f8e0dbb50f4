import { defineOperation, z } from "#kit";
import { channelParam, hexOf, shortHexOf } from "./_color.js";

export default defineOperation({
  area: "color",
  name: "rgb-to-hex",
  summary: "RGB channels to a hex color (#rrggbb)",
  description:
    "Writes red, green and blue channels (integers 0 to 255) as a hex color `#rrggbb` " +
    "(lowercase), and as the shorthand `#rgb` when each channel's two digits are the same " +
    "(`null` otherwise). Exact: no rounding is involved. Channels outside 0 to 255, or not " +
    "integers, are refused with a 422 at the channel.",
  input: z.object({ r: channelParam("red"), g: channelParam("green"), b: channelParam("blue") }),
  output: z.object({
    hex: z.string().describe("`#rrggbb`, lowercase."),
    shortHex: z.string().nullable().describe("`#rgb` when it exists, else `null`."),
  }),
  examples: [
    {
      title: "A color with a shorthand",
      input: { r: 51, g: 102, b: 153 },
      output: { hex: "#336699", shortHex: "#369" },
    },
    {
      title: "A color without one",
      input: { r: 255, g: 128, b: 0 },
      output: { hex: "#ff8000", shortHex: null },
    },
  ],
  handler: (rgb) => ({ hex: hexOf(rgb), shortHex: shortHexOf(rgb) }),
});
