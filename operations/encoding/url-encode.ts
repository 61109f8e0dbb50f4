import { defineOperation, z } from "#kit";
import { checkDecodable, inputEncodingParam, textParam, toBytes } from "../hash/_bytes.js";
import { encodingCost, PERCENT_MODES, percentEncode } from "./_codec.js";
import { TEXT_ENCODING_PARAGRAPH } from "./_describe.js";

export default defineOperation({
  area: "encoding",
  name: "url-encode",
  summary: "Percent-encode a text or bytes for a URL (RFC 3986, or HTML form encoding)",
  description: [
    "Percent-encodes bytes: every byte outside the kept set is written `%HH` with upper-case " +
      "digits (RFC 3986 section 2.1), so non-ASCII characters become the escapes of their UTF-8 " +
      "bytes (`é` → `%C3%A9`).",
    "- `mode=component` (the default) keeps only RFC 3986's unreserved characters: letters, " +
      "digits and `-` `.` `_` `~`. The result is safe in any part of a URL (a path segment, a " +
      "query name or value). JavaScript's `encodeURIComponent` also keeps `!` `'` `(` `)` `*`; " +
      "this does not.\n" +
      "- `mode=form` is `application/x-www-form-urlencoded` as the WHATWG URL standard " +
      "serializes it (HTML forms, `URLSearchParams`): letters, digits and `*` `-` `.` `_` are " +
      "kept and a space becomes `+`.",
    TEXT_ENCODING_PARAGRAPH,
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The text (or bytes, per `textEncoding`) to encode; may be empty."),
      textEncoding: inputEncodingParam("text"),
      mode: z
        .enum(PERCENT_MODES)
        .default("component")
        .describe(
          "`component` (RFC 3986 unreserved characters kept, space as `%20`) or `form` " +
            "(application/x-www-form-urlencoded, space as `+`).",
        ),
    })
    .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
  output: z.object({
    encoded: z.string().describe("The percent-encoded text."),
    textBytes: z.int().describe("Number of bytes encoded, after decoding `text`."),
  }),
  examples: [
    {
      title: "A query value with reserved characters",
      input: { text: "a b&c=d/é" },
      output: { encoded: "a%20b%26c%3Dd%2F%C3%A9", textBytes: 10 },
    },
    {
      title: "HTML form encoding: a space is +",
      input: { text: "a b&c=d/é", mode: "form" },
      output: { encoded: "a+b%26c%3Dd%2F%C3%A9", textBytes: 10 },
    },
    {
      title: "Unreserved characters are kept",
      input: { text: "AZaz09-._~" },
      output: { encoded: "AZaz09-._~", textBytes: 10 },
    },
  ],
  // At most three characters (`%HH`) per byte.
  cost: ({ text }) => encodingCost(text, 3),
  handler: ({ text, textEncoding, mode }) => {
    const bytes = toBytes(text, textEncoding);
    return { encoded: percentEncode(bytes, mode), textBytes: bytes.length };
  },
});
