import { defineOperation, z } from "#kit";
import { checkDecodable, inputEncodingParam, textParam, toBytes } from "../hash/_bytes.js";
import { encodingCost } from "./_codec.js";
import { TEXT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "hex-encode",
  summary: "Hex-encode a text or bytes (base16, RFC 4648 section 8)",
  description: [
    "Writes each byte as two hexadecimal digits (base16, RFC 4648 section 8), lowercase unless " +
      "`uppercase=true`, with no prefix and no separators.",
    TEXT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The text (or bytes, per `textEncoding`) to encode; may be empty."),
      textEncoding: inputEncodingParam("text"),
      uppercase: z
        .boolean()
        .default(false)
        .describe("Write the digits a-f in upper case (default false: lowercase)."),
    })
    .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
  output: z.object({
    encoded: z.string().describe("The hexadecimal digits, two per byte."),
    textBytes: z.int().describe("Number of bytes encoded, after decoding `text`."),
  }),
  examples: [
    {
      title: "ASCII text",
      input: { text: "Hi!" },
      output: { encoded: "486921", textBytes: 3 },
    },
    {
      title: "UTF-8 bytes of a non-ASCII character, upper case",
      input: { text: "é", uppercase: true },
      output: { encoded: "C3A9", textBytes: 2 },
    },
    {
      title: "Base64 input to hex",
      input: { text: "3q2+7w==", textEncoding: "base64" },
      output: { encoded: "deadbeef", textBytes: 4 },
    },
  ],
  cost: ({ text }) => encodingCost(text, 2),
  handler: ({ text, textEncoding, uppercase }) => {
    const bytes = toBytes(text, textEncoding);
    const encoded = bytes.toString("hex");
    return { encoded: uppercase ? encoded.toUpperCase() : encoded, textBytes: bytes.length };
  },
});
