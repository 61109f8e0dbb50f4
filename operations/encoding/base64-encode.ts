import { defineOperation, z } from "#kit";
import { checkDecodable, inputEncodingParam, textParam, toBytes } from "../hash/_bytes.js";
import { encodingCost } from "./_codec.js";
import { TEXT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "base64-encode",
  summary: "Base64-encode a text or bytes (RFC 4648, standard alphabet)",
  description: [
    "Encodes bytes in base64 (RFC 4648 section 4): the standard alphabet with `+` and `/`, " +
      "padded with `=` to a multiple of 4 characters unless `padding=false`. For URLs and file " +
      "names use `encoding/base64url-encode`. No line breaks are inserted (MIME's 76-character " +
      "lines are not produced).",
    TEXT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The text (or bytes, per `textEncoding`) to encode; may be empty."),
      textEncoding: inputEncodingParam("text"),
      padding: z
        .boolean()
        .default(true)
        .describe("Whether to pad with `=` to a multiple of 4 characters (default true)."),
    })
    .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
  output: z.object({
    encoded: z.string().describe("The base64 text."),
    textBytes: z.int().describe("Number of bytes encoded, after decoding `text`."),
  }),
  examples: [
    {
      title: "RFC 4648 test vector: foobar",
      input: { text: "foobar" },
      output: { encoded: "Zm9vYmFy", textBytes: 6 },
    },
    {
      title: "Padding, and UTF-8 text",
      input: { text: "héllo" },
      output: { encoded: "aMOpbGxv", textBytes: 6 },
    },
    {
      title: "Binary bytes given in hex, without padding",
      input: { text: "fbff", textEncoding: "hex", padding: false },
      output: { encoded: "+/8", textBytes: 2 },
    },
  ],
  // Four characters per three bytes, rounded up: at most 2 per byte for the bound.
  cost: ({ text }) => encodingCost(text, 2),
  handler: ({ text, textEncoding, padding }) => {
    const bytes = toBytes(text, textEncoding);
    const encoded = bytes.toString("base64");
    return { encoded: padding ? encoded : encoded.replace(/=+$/, ""), textBytes: bytes.length };
  },
});
