import { defineOperation, z } from "#kit";
import { textParam } from "../hash/_bytes.js";
import {
  decodedAnswer,
  decodedOrRefused,
  decodedOutput,
  decodingCost,
  outputEncodingParam,
  PERCENT_MODES,
  percentDecode,
} from "./_codec.js";
import { OUTPUT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "url-decode",
  summary: "Decode percent-encoding (RFC 3986, or HTML form encoding) to text or bytes",
  description: [
    "Decodes percent-encoding: each `%HH` (either case) is the byte HH, and every other " +
      "character stands for its own UTF-8 bytes, as the WHATWG URL standard's percent-decode " +
      "does. With `mode=form` (`application/x-www-form-urlencoded`) a `+` is a space; with " +
      "`mode=component` (the default) it stays a `+`.",
    "Unlike a browser, which leaves a malformed escape as it is, a `%` not followed by two " +
      "hexadecimal digits is refused with a 422 at `text` naming its index (a literal `%` is " +
      "written `%25`). Characters a URL may not hold unescaped (spaces, non-ASCII) are accepted " +
      "and decoded as themselves. The text is decoded once: `%2541` is `%41`, not `A`.",
    OUTPUT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z.object({
    text: textParam("The percent-encoded text to decode; may be empty."),
    mode: z
      .enum(PERCENT_MODES)
      .default("component")
      .describe("`component` (a `+` stays `+`) or `form` (a `+` is a space)."),
    encoding: outputEncodingParam(),
  }),
  output: decodedOutput(),
  examples: [
    {
      title: "Escapes of reserved characters and UTF-8",
      input: { text: "a%20b%26c%3Dd%2F%C3%A9" },
      output: { decoded: "a b&c=d/é", encoding: "utf8", decodedBytes: 10 },
    },
    {
      title: "Form encoding: a + is a space",
      input: { text: "a+b%2Bc", mode: "form" },
      output: { decoded: "a b+c", encoding: "utf8", decodedBytes: 5 },
    },
    {
      title: "Bytes that are not UTF-8, answered in hex",
      input: { text: "%FF%00x", encoding: "hex" },
      output: { decoded: "ff0078", encoding: "hex", decodedBytes: 3 },
    },
  ],
  // Never more bytes than the text's own UTF-8 (an escape is three bytes for one).
  cost: ({ text, encoding }) => decodingCost(text, Buffer.byteLength(text, "utf8"), encoding),
  handler: ({ text, mode, encoding }) => {
    const bytes = decodedOrRefused(percentDecode(text, mode === "form"), "percent-encoding");
    return decodedAnswer(bytes, encoding);
  },
});
