/**
 * HMAC (RFC 2104) over the SHA-2 hashes, and one builder for the `hash/hmac-sha*`
 * operations: they differ only in the hash, its block and their test vectors.
 */
import { hash } from "node:crypto";
import { defineOperation, groupDigits, z } from "#kit";
import {
  checkDecodable,
  DIGEST_ENCODINGS,
  type DigestEncoding,
  digestEncodingParam,
  encodeDigest,
  hashingCost,
  type InputEncoding,
  inputEncodingParam,
  MAX_TEXT_LENGTH,
  textParam,
  toBytes,
} from "./_bytes.js";

const INNER_PAD = 0x36;
const OUTER_PAD = 0x5c;

/**
 * HMAC from two one-shot hashes, as `hash/hmac-md5` does it (Node 24's `createHmac` checks
 * the key against every key-object kind first, several times the cost of the hashing).
 *
 * @example
 * hmac("sha256", 64, Buffer.from("Jefe"), Buffer.from("what do ya want for nothing?"));
 */
export function hmac(
  algorithm: string,
  blockBytes: number,
  key: Uint8Array,
  message: Uint8Array,
): Buffer {
  const block = Buffer.alloc(blockBytes);
  block.set(key.length > blockBytes ? hash(algorithm, key, "buffer") : key);
  const inner = Buffer.allocUnsafe(blockBytes + message.length);
  for (let i = 0; i < blockBytes; i++) inner[i] = (block[i] as number) ^ INNER_PAD;
  inner.set(message, blockBytes);
  const innerDigest = hash(algorithm, inner, "buffer");
  const outer = Buffer.allocUnsafe(blockBytes + innerDigest.length);
  for (let i = 0; i < blockBytes; i++) outer[i] = (block[i] as number) ^ OUTER_PAD;
  outer.set(innerDigest, blockBytes);
  return hash(algorithm, outer, "buffer");
}

/** What an HMAC operation answers. */
export interface HmacAnswer {
  algorithm: string;
  digest: string;
  encoding: DigestEncoding;
  textBytes: number;
  keyBytes: number;
}

interface HmacSpec {
  /** The hash of `node:crypto`: `sha256`. The operation is `hash/hmac-<hash>`. */
  hash: string;
  /** How people write the hash: `SHA-256`. */
  title: string;
  blockBytes: number;
  digestBytes: number;
  examples: {
    title: string;
    input: {
      text: string;
      key: string;
      textEncoding?: InputEncoding;
      keyEncoding?: InputEncoding;
      encoding?: DigestEncoding;
    };
    output: HmacAnswer;
  }[];
}

/**
 * The operation `hash/hmac-<hash>`, accepting and refusing exactly what `hash/hmac-md5` does.
 *
 * @example
 * export default hmacOperation({ hash: "sha256", title: "SHA-256", blockBytes: 64, … });
 */
export function hmacOperation(spec: HmacSpec) {
  const { title, blockBytes, digestBytes } = spec;
  const algorithm = `hmac-${spec.hash}`;
  return defineOperation({
    area: "hash",
    name: algorithm,
    summary: `HMAC-${title} of a text under a key (RFC 2104, RFC 4231)`,
    description: [
      `Computes the keyed-hash message authentication code HMAC-${title} (RFC 2104 over ${title}, ` +
        "FIPS 180-4) of `text` under `key`; the results match the test vectors of RFC 4231. Both " +
        `\`text\` and \`key\` are required and may be empty. Keys longer than ${blockBytes} bytes ` +
        `(the hash's block) are hashed first, as the RFC says; RFC 2104 recommends keys of at least ` +
        `${digestBytes} bytes.`,
      "`textEncoding` and `keyEncoding` say how each parameter becomes bytes: `utf8` (the default) " +
        "hashes the UTF-8 encoding of the characters, `hex` takes pairs of hexadecimal digits " +
        "(either case), and `base64` takes standard base64 (RFC 4648 alphabet with `+` and `/`; " +
        "the `=` padding may be left out). Use `hex` or `base64` for binary keys and messages. " +
        "Decoding is strict: an odd number of hex digits, a character outside the alphabet, " +
        "misplaced padding or non-zero unused bits is refused with a 422 located at the parameter " +
        "concerned. In a URL, send a `+` of base64 as `%2B`, or it arrives as a space.",
      `\`encoding\` chooses how the ${digestBytes}-byte digest is written: \`hex\` (the default, ` +
        "lowercase) or `base64` (standard, padded). A truncated HMAC (RFC 4231 test case 5) is a " +
        "prefix of this digest. The response also gives the number of bytes hashed from the " +
        `text and the key. Each of \`text\` and \`key\` may be at most ${groupDigits(MAX_TEXT_LENGTH)} ` +
        "characters long.",
      "A key sent in a query string may be kept in logs along the way (proxies, browser history): " +
        "send real secrets in a GraphQL or MCP body, or use this with test keys.",
    ].join("\n\n"),
    input: z
      .object({
        text: textParam("The message to authenticate (may be empty)."),
        key: textParam(
          `The secret key (may be empty). Keys longer than ${blockBytes} bytes are hashed first.`,
        ),
        textEncoding: inputEncodingParam("text"),
        keyEncoding: inputEncodingParam("key"),
        encoding: digestEncodingParam(),
      })
      .superRefine((input, ctx) => {
        checkDecodable(ctx, "text", input.text, input.textEncoding);
        checkDecodable(ctx, "key", input.key, input.keyEncoding);
      }),
    output: z.object({
      algorithm: z.string().describe(`Always \`"${algorithm}"\`.`),
      digest: z
        .string()
        .describe(`The ${digestBytes}-byte HMAC-${title} digest, written in \`encoding\`.`),
      encoding: z.enum(DIGEST_ENCODINGS).describe("How `digest` is written."),
      textBytes: z.int().describe("Number of bytes of the message, after decoding `text`."),
      keyBytes: z.int().describe("Number of bytes of the key, after decoding `key`."),
    }),
    examples: spec.examples,
    cost: ({ text, key }) => hashingCost(text, key),
    handler: ({ text, key, textEncoding, keyEncoding, encoding }): HmacAnswer => {
      const message = toBytes(text, textEncoding);
      const secret = toBytes(key, keyEncoding);
      return {
        algorithm,
        digest: encodeDigest(hmac(spec.hash, blockBytes, secret, message), encoding),
        encoding,
        textBytes: message.length,
        keyBytes: secret.length,
      };
    },
  });
}
