/**
 * One builder for the digest checksums (`crypto/checksum/sha1`, `sha256`, …): they differ
 * only in the algorithm, its standard and its examples, so each module stays a few lines
 * and all accept, refuse and answer exactly as `crypto/checksum/md5` does.
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
} from "../../hash/_bytes.js";

/** What a digest checksum answers. */
export interface DigestAnswer {
  algorithm: string;
  digest: string;
  encoding: DigestEncoding;
  textBytes: number;
}

interface DigestSpec {
  /** The module's name under `crypto/checksum/`, and the `algorithm` it answers: `sha256`. */
  name: string;
  /** Node's name for the hash (`node:crypto` `hash`): `sha256`, `sha3-256`. */
  nodeAlgorithm: string;
  /** How people write it: `SHA-256`. */
  title: string;
  /** Where it is defined, and whose test vectors the results match. */
  standard: string;
  digestBytes: number;
  /** The digest of the empty string, in hex, for the description. */
  emptyDigest: string;
  /** A last paragraph: what the hash is (and is not) fit for. */
  advice: string;
  examples: {
    title: string;
    input: { text: string; textEncoding?: InputEncoding; encoding?: DigestEncoding };
    output: DigestAnswer;
  }[];
}

const encodingsParagraph =
  "`textEncoding` says how `text` becomes bytes: `utf8` (the default) hashes the UTF-8 encoding of " +
  "the characters, `hex` takes pairs of hexadecimal digits (either case), and `base64` takes " +
  "standard base64 (RFC 4648 alphabet with `+` and `/`; the `=` padding may be left out). Decoding " +
  "is strict: an odd number of hex digits, a character outside the alphabet, misplaced padding or " +
  "non-zero unused bits is refused with a 422 located at `text`, never silently skipped. In a URL, " +
  "send a `+` of base64 as `%2B`, or it arrives as a space.";

/**
 * The operation `crypto/checksum/<name>` for one hash of `node:crypto`.
 *
 * @example
 * export default digestOperation({ name: "sha256", nodeAlgorithm: "sha256", title: "SHA-256", … });
 */
export function digestOperation(spec: DigestSpec) {
  const { name, nodeAlgorithm, title, digestBytes } = spec;
  return defineOperation({
    area: "crypto",
    name: `checksum/${name}`,
    summary: `${title} digest of a text (${spec.standard})`,
    description: [
      `Computes the ${title} digest (${spec.standard}) of \`text\`. \`text\` is required and may be ` +
        `empty (its ${title} is \`${spec.emptyDigest}\`).`,
      encodingsParagraph,
      `\`encoding\` chooses how the ${digestBytes}-byte digest is written: \`hex\` (the default, ` +
        "lowercase) or `base64` (standard, padded). The response also gives the number of bytes " +
        `hashed. \`text\` may be at most ${groupDigits(MAX_TEXT_LENGTH)} characters long.`,
      spec.advice,
    ].join("\n\n"),
    input: z
      .object({
        text: textParam("The text to hash (may be empty)."),
        textEncoding: inputEncodingParam("text"),
        encoding: digestEncodingParam(),
      })
      .superRefine((input, ctx) => checkDecodable(ctx, "text", input.text, input.textEncoding)),
    output: z.object({
      algorithm: z.string().describe(`Always \`"${name}"\`.`),
      digest: z
        .string()
        .describe(`The ${digestBytes}-byte ${title} digest, written in \`encoding\`.`),
      encoding: z.enum(DIGEST_ENCODINGS).describe("How `digest` is written."),
      textBytes: z.int().describe("Number of bytes hashed, after decoding `text`."),
    }),
    examples: spec.examples,
    cost: ({ text }) => hashingCost(text),
    handler: ({ text, textEncoding, encoding }): DigestAnswer => {
      const bytes = toBytes(text, textEncoding);
      return {
        algorithm: name,
        digest: encodeDigest(hash(nodeAlgorithm, bytes, "buffer"), encoding),
        encoding,
        textBytes: bytes.length,
      };
    },
  });
}
