import { defineOperation, z } from "#kit";
import { textParam } from "../hash/_bytes.js";
import {
  decodedAnswer,
  decodedOrRefused,
  decodedOutput,
  decodeHex,
  decodingCost,
  outputEncodingParam,
} from "./_codec.js";
import { OUTPUT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "hex-decode",
  summary: "Decode hexadecimal to text or bytes (base16)",
  description: [
    "Decodes hexadecimal (base16, RFC 4648 section 8): two digits per byte, either case. " +
      "Nothing else is accepted, and a refusal (a 422 at `text`) names the index where the text " +
      "goes wrong: a `0x` prefix, spaces, colons or other separators, or an odd number of digits.",
    OUTPUT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z.object({
    text: textParam("The hexadecimal digits to decode; may be empty."),
    encoding: outputEncodingParam(),
  }),
  output: decodedOutput(),
  examples: [
    {
      title: "ASCII text",
      input: { text: "486921" },
      output: { decoded: "Hi!", encoding: "utf8", decodedBytes: 3 },
    },
    {
      title: "Either case; UTF-8 text",
      input: { text: "C3A9e282ac" },
      output: { decoded: "é€", encoding: "utf8", decodedBytes: 5 },
    },
    {
      title: "Binary bytes, answered in base64",
      input: { text: "deadbeef", encoding: "base64" },
      output: { decoded: "3q2+7w==", encoding: "base64", decodedBytes: 4 },
    },
  ],
  // Two digits per byte.
  cost: ({ text, encoding }) => decodingCost(text, Math.floor(text.length / 2), encoding),
  handler: ({ text, encoding }) => {
    const bytes = decodedOrRefused(decodeHex(text), "hexadecimal");
    return decodedAnswer(bytes, encoding);
  },
});
