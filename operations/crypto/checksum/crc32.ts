import { crc32 } from "node:zlib";
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
  name: "checksum/crc32",
  summary: "CRC-32 checksum of a text (ISO-HDLC: zlib, PNG, gzip, Ethernet)",
  description: [
    "Computes the CRC-32 of `text` in its most common variant, CRC-32/ISO-HDLC: the one of zlib, " +
      "gzip, PNG, ZIP and Ethernet (polynomial 0x04C11DB7, reflected, initial value and final XOR " +
      "0xFFFFFFFF; the check value of the ASCII `123456789` is `cbf43926`). Other CRC-32 variants " +
      "(CRC-32C of iSCSI, CRC-32/BZIP2, CRC-32/MPEG-2) give other values. `text` is required and " +
      "may be empty (its CRC-32 is 0).",
    "`textEncoding` says how `text` becomes bytes: `utf8` (the default) checks the UTF-8 encoding of " +
      "the characters, `hex` takes pairs of hexadecimal digits (either case), and `base64` takes " +
      "standard base64 (RFC 4648 alphabet with `+` and `/`; the `=` padding may be left out). Decoding " +
      "is strict: an odd number of hex digits, a character outside the alphabet, misplaced padding or " +
      "non-zero unused bits is refused with a 422 located at `text`. In a URL, send a `+` of base64 " +
      "as `%2B`, or it arrives as a space.",
    "`value` is the checksum as an unsigned 32-bit integer; `digest` writes the same four bytes " +
      "big-endian (most significant first, as `crc32` tools print it) in `encoding`: `hex` (the " +
      "default, lowercase, always 8 digits) or `base64`. The response also gives the number of " +
      `bytes checked. \`text\` may be at most ${groupDigits(MAX_TEXT_LENGTH)} characters long.`,
    "A CRC detects accidental corruption (every burst of up to 32 bits); it is not a cryptographic " +
      "hash: anyone can make data with a chosen CRC.",
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The text to checksum (may be empty)."),
      textEncoding: inputEncodingParam("text"),
      encoding: digestEncodingParam(),
    })
    .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
  output: z.object({
    algorithm: z.string().describe('Always `"crc32"`.'),
    digest: z.string().describe("The 4-byte checksum, big-endian, written in `encoding`."),
    encoding: z.enum(DIGEST_ENCODINGS).describe("How `digest` is written."),
    value: z.int().min(0).max(0xffff_ffff).describe("The checksum as an unsigned 32-bit integer."),
    textBytes: z.int().describe("Number of bytes checked, after decoding `text`."),
  }),
  examples: [
    {
      title: "The check value: 123456789",
      input: { text: "123456789" },
      output: {
        algorithm: "crc32",
        digest: "cbf43926",
        encoding: "hex",
        value: 3421780262,
        textBytes: 9,
      },
    },
    {
      title: "The empty string",
      input: { text: "" },
      output: { algorithm: "crc32", digest: "00000000", encoding: "hex", value: 0, textBytes: 0 },
    },
    {
      title: "Binary input in hex, checksum in base64",
      input: { text: "00ff10", textEncoding: "hex", encoding: "base64" },
      output: {
        algorithm: "crc32",
        digest: "cdI0BA==",
        encoding: "base64",
        value: 1909601284,
        textBytes: 3,
      },
    },
  ],
  cost: ({ text }) => hashingCost(text),
  handler: ({ text, textEncoding, encoding }) => {
    const bytes = toBytes(text, textEncoding);
    const value = crc32(bytes);
    const digest = Buffer.allocUnsafe(4);
    digest.writeUInt32BE(value);
    return {
      algorithm: "crc32",
      digest: encodeDigest(digest, encoding),
      encoding,
      value,
      textBytes: bytes.length,
    };
  },
});
