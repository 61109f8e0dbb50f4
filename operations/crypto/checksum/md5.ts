import { hash } from "node:crypto";
import { defineOperation, groupDigits, z } from "#kit";
import {
  checkDecodable,
  DIGEST_ENCODINGS,
  digestEncodingParam,
  encodeDigest,
  hashingCost,
  inputEncodingParam,
  MAX_TEXT_LENGTH,
  textParam,
  toBytes,
} from "../../hash/_bytes.js";

export default defineOperation({
  area: "crypto",
  name: "checksum/md5",
  summary: "MD5 checksum of a text (RFC 1321)",
  description: [
    "Computes the MD5 message digest (RFC 1321) of `text`; the results match the test suite in " +
      "appendix A.5 of the RFC. `text` is required and may be empty (its MD5 is " +
      "`d41d8cd98f00b204e9800998ecf8427e`).",
    "`textEncoding` says how `text` becomes bytes: `utf8` (the default) hashes the UTF-8 encoding of " +
      "the characters, `hex` takes pairs of hexadecimal digits (either case), and `base64` takes " +
      "standard base64 (RFC 4648 alphabet with `+` and `/`; the `=` padding may be left out). Decoding " +
      "is strict: an odd number of hex digits, a character outside the alphabet, misplaced padding or " +
      "non-zero unused bits is refused with a 422 located at `text`, never silently skipped. In a URL, " +
      "send a `+` of base64 as `%2B`, or it arrives as a space.",
    `\`encoding\` chooses how the 16-byte digest is written: \`hex\` (the default, lowercase) or ` +
      `\`base64\`. The response also gives the number of bytes hashed. \`text\` may be at most ` +
      `${groupDigits(MAX_TEXT_LENGTH)} characters long.`,
    "MD5 is fine for detecting accidental corruption but broken against deliberate collisions: do not " +
      "use it where an attacker chooses the data.",
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The text to checksum (may be empty)."),
      textEncoding: inputEncodingParam("text"),
      encoding: digestEncodingParam(),
    })
    .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
  output: z.object({
    algorithm: z.string().describe('Always `"md5"`.'),
    digest: z.string().describe("The 16-byte MD5 digest, written in `encoding`."),
    encoding: z.enum(DIGEST_ENCODINGS).describe("How `digest` is written."),
    textBytes: z.int().describe("Number of bytes hashed, after decoding `text`."),
  }),
  examples: [
    {
      title: "RFC 1321 test suite: abc",
      input: { text: "abc" },
      output: {
        algorithm: "md5",
        digest: "900150983cd24fb0d6963f7d28e17f72",
        encoding: "hex",
        textBytes: 3,
      },
    },
    {
      title: "The empty string",
      input: { text: "" },
      output: {
        algorithm: "md5",
        digest: "d41d8cd98f00b204e9800998ecf8427e",
        encoding: "hex",
        textBytes: 0,
      },
    },
    {
      title: "Binary input in hex, digest in base64",
      input: { text: "00ff10", textEncoding: "hex", encoding: "base64" },
      output: {
        algorithm: "md5",
        digest: "SB5FUewDmq2nYJAc9SsZFw==",
        encoding: "base64",
        textBytes: 3,
      },
    },
  ],
  cost: ({ text }) => hashingCost(text),
  handler: ({ text, textEncoding, encoding }) => {
    const bytes = toBytes(text, textEncoding);
    return {
      algorithm: "md5",
      digest: encodeDigest(hash("md5", bytes, "buffer"), encoding),
      encoding,
      textBytes: bytes.length,
    };
  },
});
