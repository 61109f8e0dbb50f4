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
  name: "base64url-decode",
  summary: "Decode base64url to text or bytes (RFC 4648 section 5, URL-safe alphabet)",
  description: [
    "Decodes base64url (RFC 4648 section 5): the URL- and file-name-safe alphabet with `-` and " +
      "`_`; the `=` padding may be left out (JWT leaves it out) or given. Standard base64 (`+` " +
      "and `/`) is refused: use `encoding/base64-decode` for it.",
    "Decoding is strict, and a refusal (a 422 at `text`) names the index where the text goes " +
      "wrong: a character outside the alphabet (whitespace and line breaks included), `=` " +
      "anywhere but at the end, the wrong amount of padding, a last group of one character, or " +
      "non-zero unused bits in the last character (so each byte string has one accepted " +
      "spelling, with or without its padding).",
    OUTPUT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z.object({
    text: textParam("The base64url text to decode; may be empty."),
    encoding: outputEncodingParam(),
  }),
  output: decodedOutput(),
  examples: [
    {
      title: "A JWT header",
      input: { text: "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9" },
      output: { decoded: '{"alg":"HS256","typ":"JWT"}', encoding: "utf8", decodedBytes: 27 },
    },
    {
      title: "URL-safe characters, answered in hex",
      input: { text: "-_8", encoding: "hex" },
      output: { decoded: "fbff", encoding: "hex", decodedBytes: 2 },
    },
    {
      title: "Padding is accepted too",
      input: { text: "-_8=", encoding: "base64" },
      output: { decoded: "+/8=", encoding: "base64", decodedBytes: 2 },
    },
  ],
  // Four characters carry at most three bytes.
  cost: ({ text, encoding }) => decodingCost(text, Math.floor((3 * text.length) / 4), encoding),
  handler: ({ text, encoding }) => {
    const bytes = decodedOrRefused(decodeBase64(text, "base64url"), "base64url");
    return decodedAnswer(bytes, encoding);
  },
});
