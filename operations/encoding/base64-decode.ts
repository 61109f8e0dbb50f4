import { defineOperation, z } from "#kit";
import { textParam } from "../hash/_bytes.js";
import {
  decodeBase64,
  decodedAnswer,
  decodedOrRefused,
  decodedOutput,
  decodingCost,
  outputEncodingParam,
} from "./_codec.js";
import { OUTPUT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "base64-decode",
  summary: "Decode base64 to text or bytes (RFC 4648, standard alphabet)",
  description: [
    "Decodes base64 (RFC 4648 section 4): the standard alphabet with `+` and `/`; the `=` " +
      "padding may be left out. In a URL, send each `+` as `%2B`, or it arrives as a space. For " +
      "the URL-safe alphabet (`-` and `_`) use `encoding/base64url-decode`.",
    "Decoding is strict, and a refusal (a 422 at `text`) names the index where the text goes " +
      "wrong: a character outside the alphabet (whitespace and line breaks included), `=` " +
      "anywhere but at the end, the wrong amount of padding, a last group of one character, or " +
      "non-zero unused bits in the last character (so each byte string has one accepted " +
      "spelling, with or without its padding).",
    OUTPUT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z.object({
    text: textParam("The base64 text to decode; may be empty."),
    encoding: outputEncodingParam(),
  }),
  output: decodedOutput(),
  examples: [
    {
      title: "RFC 4648 test vector: Zm9vYmFy",
      input: { text: "Zm9vYmFy" },
      output: { decoded: "foobar", encoding: "utf8", decodedBytes: 6 },
    },
    {
      title: "Padding may be left out",
      input: { text: "aMOpbGxvIQ" },
      output: { decoded: "héllo!", encoding: "utf8", decodedBytes: 7 },
    },
    {
      title: "Binary bytes, answered in hex",
      input: { text: "3q2+7w==", encoding: "hex" },
      output: { decoded: "deadbeef", encoding: "hex", decodedBytes: 4 },
    },
  ],
  // Four characters carry at most three bytes.
  cost: ({ text, encoding }) => decodingCost(text, Math.floor((3 * text.length) / 4), encoding),
  handler: ({ text, encoding }) => {
    const bytes = decodedOrRefused(decodeBase64(text, "base64"), "base64");
    return decodedAnswer(bytes, encoding);
  },
});
