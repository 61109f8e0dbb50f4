import { defineOperation, z } from "#kit";
import { checkDecodable, inputEncodingParam, textParam, toBytes } from "../hash/_bytes.js";
import { encodingCost } from "./_codec.js";
import { TEXT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "base64url-encode",
  summary: "Base64url-encode a text or bytes (RFC 4648 section 5, URL-safe alphabet)",
  description: [
    "Encodes bytes in base64url (RFC 4648 section 5): the URL- and file-name-safe alphabet, with " +
      "`-` and `_` in place of `+` and `/`. Unpadded by default, as JWT (RFC 7515) and most URL " +
      "uses want it; `padding=true` adds the `=` padding to a multiple of 4 characters.",
    TEXT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The text (or bytes, per `textEncoding`) to encode; may be empty."),
      textEncoding: inputEncodingParam("text"),
      padding: z
        .boolean()
        .default(false)
        .describe("Whether to pad with `=` to a multiple of 4 characters (default false)."),
    })
    .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
  output: z.object({
    encoded: z.string().describe("The base64url text."),
    textBytes: z.int().describe("Number of bytes encoded, after decoding `text`."),
  }),
  examples: [
    {
      title: "A JWT header",
      input: { text: '{"alg":"HS256","typ":"JWT"}' },
      output: { encoded: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9", textBytes: 27 },
    },
    {
      title: "Bytes whose standard base64 would need + and /",
      input: { text: "fbff", textEncoding: "hex" },
      output: { encoded: "-_8", textBytes: 2 },
    },
    {
      title: "With padding",
      input: { text: "fbff", textEncoding: "hex", padding: true },
      output: { encoded: "-_8=", textBytes: 2 },
    },
  ],
  cost: ({ text }) => encodingCost(text, 2),
  handler: ({ text, textEncoding, padding }) => {
    const bytes = toBytes(text, textEncoding);
    const encoded = bytes.toString("base64url");
    const padded = padding ? encoded.padEnd(4 * Math.ceil(encoded.length / 4), "=") : encoded;
    return { encoded: padded, textBytes: bytes.length };
  },
});
