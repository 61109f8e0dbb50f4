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
} from "./_bytes.js";

/** MD5's block: keys are padded (or first hashed) to it. */
const BLOCK_BYTES = 64;
const INNER_PAD = 0x36;
const OUTER_PAD = 0x5c;

/**
 * HMAC-MD5 (RFC 2104) from two one-shot MD5 hashes. On Node 24 `createHmac` costs about
 * five times as much: it checks the key against every key-object kind first.
 */
export function hmacMd5(key: Uint8Array, message: Uint8Array): Buffer {
  const block = Buffer.alloc(BLOCK_BYTES);
  block.set(key.length > BLOCK_BYTES ? hash("md5", key, "buffer") : key);
  const inner = Buffer.allocUnsafe(BLOCK_BYTES + message.length);
  const outer = Buffer.allocUnsafe(BLOCK_BYTES + 16);
  for (let i = 0; i < BLOCK_BYTES; i++) {
    inner[i] = (block[i] as number) ^ INNER_PAD;
    outer[i] = (block[i] as number) ^ OUTER_PAD;
  }
  inner.set(message, BLOCK_BYTES);
  outer.set(hash("md5", inner, "buffer"), BLOCK_BYTES);
  return hash("md5", outer, "buffer");
}

export default defineOperation({
  area: "hash",
  name: "hmac-md5",
  summary: "HMAC-MD5 of a text under a key (RFC 2104)",
  description: [
    "Computes the keyed-hash message authentication code HMAC-MD5 (RFC 2104) of `text` under `key`; " +
      "the results match the test vectors of RFC 2202. Both `text` and `key` are required and may be empty.",
    "`textEncoding` and `keyEncoding` say how each parameter becomes bytes: `utf8` (the default) hashes " +
      "the UTF-8 encoding of the characters, `hex` takes pairs of hexadecimal digits (either case), and " +
      "`base64` takes standard base64 (RFC 4648 alphabet with `+` and `/`; the `=` padding may be left " +
      "out). Use `hex` or `base64` for binary keys and messages. Decoding is strict: an odd number of hex " +
      "digits, a character outside the alphabet, misplaced padding or non-zero unused bits is refused with " +
      "a 422 located at the parameter concerned, never silently skipped. In a URL, send a `+` of base64 as " +
      "`%2B`, or it arrives as a space.",
    `\`encoding\` chooses how the 16-byte digest is written: \`hex\` (the default, lowercase) or \`base64\`. ` +
      `The response also gives the number of bytes hashed from the text and the key. Each of \`text\` ` +
      `and \`key\` may be at most ${groupDigits(MAX_TEXT_LENGTH)} characters long.`,
    "MD5 is broken as a collision-resistant hash; HMAC-MD5 is offered for compatibility with existing " +
      "systems, not for new designs.",
  ].join("\n\n"),
  input: z
    .object({
      text: textParam("The message to authenticate (may be empty)."),
      key: textParam("The secret key (may be empty). Keys longer than 64 bytes are hashed first."),
      textEncoding: inputEncodingParam("text"),
      keyEncoding: inputEncodingParam("key"),
      encoding: digestEncodingParam(),
    })
    .superRefine((input, ctx) => {
      checkDecodable(ctx, "text", input.text, input.textEncoding);
      checkDecodable(ctx, "key", input.key, input.keyEncoding);
    }),
  output: z.object({
    algorithm: z.string().describe('Always `"hmac-md5"`.'),
    digest: z.string().describe("The 16-byte HMAC-MD5 digest, written in `encoding`."),
    encoding: z.enum(DIGEST_ENCODINGS).describe("How `digest` is written."),
    textBytes: z.int().describe("Number of bytes of the message, after decoding `text`."),
    keyBytes: z.int().describe("Number of bytes of the key, after decoding `key`."),
  }),
  examples: [
    {
      title: "RFC 2202 test case 2",
      input: { text: "what do ya want for nothing?", key: "Jefe" },
      output: {
        algorithm: "hmac-md5",
        digest: "750c783e6ab0b503eaa86e310a5db738",
        encoding: "hex",
        textBytes: 28,
        keyBytes: 4,
      },
    },
    {
      title: "RFC 2202 test case 1: a binary key given in hex",
      input: { text: "Hi There", key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b", keyEncoding: "hex" },
      output: {
        algorithm: "hmac-md5",
        digest: "9294727a3638bb1c13f48ef8158bfc9d",
        encoding: "hex",
        textBytes: 8,
        keyBytes: 16,
      },
    },
    {
      title: "The digest in base64",
      input: { text: "what do ya want for nothing?", key: "Jefe", encoding: "base64" },
      output: {
        algorithm: "hmac-md5",
        digest: "dQx4PmqwtQPqqG4xCl23OA==",
        encoding: "base64",
        textBytes: 28,
        keyBytes: 4,
      },
    },
  ],
  cost: ({ text, key }) => hashingCost(text, key),
  handler: ({ text, key, textEncoding, keyEncoding, encoding }) => {
    const message = toBytes(text, textEncoding);
    const secret = toBytes(key, keyEncoding);
    const digest = hmacMd5(secret, message);
    return {
      algorithm: "hmac-md5",
      digest: encodeDigest(digest, encoding),
      encoding,
      textBytes: message.length,
      keyBytes: secret.length,
    };
  },
});
