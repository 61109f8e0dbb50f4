/**
 * Turning text parameters into bytes and digests back into text, shared by the hashing
 * operations (`hash/hmac-md5`, `crypto/checksum/md5`) so they accept and refuse exactly
 * the same inputs.
 */
import { type Cost, text, z } from "#kit";

/** How a text parameter becomes bytes. */
export const INPUT_ENCODINGS = ["utf8", "hex", "base64"] as const;
export type InputEncoding = (typeof INPUT_ENCODINGS)[number];

/** How a digest is written out. */
export const DIGEST_ENCODINGS = ["hex", "base64"] as const;
export type DigestEncoding = (typeof DIGEST_ENCODINGS)[number];

/** Longest text parameter accepted, in characters: enough for any test vector, not for files. */
export const MAX_TEXT_LENGTH = 100_000;

/** The outcome of decoding: the bytes, or why the text is not valid in its encoding. */
export type DecodeResult = { ok: true; bytes: Buffer } | { ok: false; reason: string };

const NOT_HEX_DIGIT = /[^0-9a-fA-F]/;
const NOT_BASE64_CHARACTER = /[^A-Za-z0-9+/=]/;

/** A character and its index, for a refusal: `'x' at index 3`, or `U+000A at index 3` for a control. */
export function describeCharacter(text: string, index: number): string {
  const codePoint = text.codePointAt(index) ?? 0;
  const shown =
    codePoint < 0x20 || codePoint === 0x7f
      ? `U+${codePoint.toString(16).toUpperCase().padStart(4, "0")}`
      : `'${String.fromCodePoint(codePoint)}'`;
  return `${shown} at index ${index}`;
}

function decodeHex(text: string): DecodeResult {
  const index = text.search(NOT_HEX_DIGIT);
  if (index !== -1) {
    return {
      ok: false,
      reason: `contains ${describeCharacter(text, index)}, which is not a hexadecimal digit`,
    };
  }
  if (text.length % 2 !== 0) {
    return {
      ok: false,
      reason: `has an odd number of hexadecimal digits (${text.length}); every byte needs two`,
    };
  }
  return { ok: true, bytes: Buffer.from(text, "hex") };
}

/**
 * Strict RFC 4648 base64 (standard alphabet). Padding may be left out, but when present it
 * must be right, and the unused low bits of the last character must be zero, so every byte
 * string has exactly one accepted spelling (with or without its padding).
 */
function decodeBase64(text: string): DecodeResult {
  const index = text.search(NOT_BASE64_CHARACTER);
  if (index !== -1) {
    // A '+' sent unescaped in a URL arrives as a space: say so, it is the usual cause.
    const hint = text.charAt(index) === " " ? " (a '+' in a URL must be sent as %2B)" : "";
    return {
      ok: false,
      reason: `contains ${describeCharacter(text, index)}, which is not a base64 character${hint}`,
    };
  }
  const firstPad = text.indexOf("=");
  const body = firstPad === -1 ? text : text.slice(0, firstPad);
  const padding = firstPad === -1 ? "" : text.slice(firstPad);
  if (!/^={0,2}$/.test(padding)) {
    return { ok: false, reason: "has '=' padding somewhere other than the end" };
  }
  if (body.length % 4 === 1) {
    return {
      ok: false,
      reason: `has ${body.length} base64 characters before padding; a length of 4n+1 cannot encode whole bytes`,
    };
  }
  const expectedPadding = "=".repeat((4 - (body.length % 4)) % 4);
  if (padding !== "" && padding !== expectedPadding) {
    return {
      ok: false,
      reason: `has the wrong padding: ${body.length} characters need '${expectedPadding}'`,
    };
  }
  const bytes = Buffer.from(body, "base64");
  if (bytes.toString("base64").replace(/=+$/, "") !== body) {
    return { ok: false, reason: "has non-zero unused bits in its last character" };
  }
  return { ok: true, bytes };
}

/**
 * Decodes `text` as `encoding`, refusing anything that is not strictly valid (Node's own
 * base64 decoder skips junk silently; this one does not).
 *
 * @example
 * decodeText("4a656665", "hex"); // { ok: true, bytes: <Buffer 4a 65 66 65> }
 * decodeText("abc", "hex"); // { ok: false, reason: "has an odd number of hexadecimal digits (3); …" }
 */
export function decodeText(text: string, encoding: InputEncoding): DecodeResult {
  switch (encoding) {
    case "utf8":
      return { ok: true, bytes: Buffer.from(text, "utf8") };
    case "hex":
      return decodeHex(text);
    case "base64":
      return decodeBase64(text);
  }
}

/**
 * The bytes of a parameter already checked by {@link checkDecodable}.
 *
 * @example
 * toBytes("SmVmZQ==", "base64").toString(); // "Jefe"
 */
export function toBytes(text: string, encoding: InputEncoding): Buffer {
  const decoded = decodeText(text, encoding);
  // Unreachable after validation; kept so a missed check can never hash the wrong bytes.
  if (!decoded.ok) throw new Error(`parameter is not valid ${encoding}: ${decoded.reason}`);
  return decoded.bytes;
}

type RefinementContext = { addIssue(issue: z.core.$ZodRawIssue): void };

/**
 * For an object schema's `superRefine`: reports `value` at `[field]` when it is not valid
 * in `encoding`, as a Pydantic `value_error`.
 *
 * @example
 * z.object({ text, textEncoding }).superRefine((input, ctx) =>
 *   checkDecodable(ctx, "text", input.text, input.textEncoding));
 */
export function checkDecodable(
  ctx: RefinementContext,
  field: string,
  value: string,
  encoding: InputEncoding,
): void {
  const decoded = decodeText(value, encoding);
  if (decoded.ok) return;
  ctx.addIssue({
    code: "custom",
    path: [field],
    input: value,
    message: `Value error, ${field} is not valid ${encoding}: it ${decoded.reason}`,
    params: { type: "value_error" },
  });
}

/**
 * Work of hashing one UTF-16 unit of a text: checking it, encoding it to up to 4 bytes of
 * UTF-8 and running MD5 over them (measured at most 27 ns a unit, for text of emoji).
 */
const HASH_WORK_PER_UNIT = 30;

/**
 * The `cost` of hashing `texts`: their UTF-16 units at {@link HASH_WORK_PER_UNIT}, and a
 * small answer. Two 100,000-emoji texts come to 12 million, so one such field fits in a
 * GraphQL document and a second does not.
 *
 * @example
 * cost: ({ text, key }) => hashingCost(text, key),
 */
export function hashingCost(...texts: string[]): Cost {
  let units = 0;
  for (const value of texts) units += value.length;
  return { work: units * HASH_WORK_PER_UNIT, bytes: 512 };
}

/**
 * A text parameter to be turned into bytes: any string up to {@link MAX_TEXT_LENGTH}
 * characters, empty allowed. The kit's `text()`: a lone surrogate is refused, not hashed
 * as U+FFFD; bytes that are not UTF-8 text come in with the hex or base64 encodings.
 *
 * @example
 * const input = z.object({ text: textParam("The message.") });
 */
export function textParam(description: string) {
  return text({ max: MAX_TEXT_LENGTH, description });
}

/**
 * The `…Encoding` parameter saying how a text parameter becomes bytes (default `utf8`).
 *
 * @example
 * const input = z.object({ textEncoding: inputEncodingParam("text") });
 */
export function inputEncodingParam(field: string) {
  return z
    .enum(INPUT_ENCODINGS)
    .describe(
      `How \`${field}\` becomes bytes: \`utf8\` (its UTF-8 encoding), \`hex\` (pairs of hexadecimal digits, either case) or \`base64\` (standard alphabet, padding optional).`,
    )
    .default("utf8");
}

/**
 * The `encoding` parameter saying how the digest is written (default `hex`).
 *
 * @example
 * const input = z.object({ encoding: digestEncodingParam() });
 */
export function digestEncodingParam() {
  return z
    .enum(DIGEST_ENCODINGS)
    .describe(
      "How the digest is written: `hex` (lowercase hexadecimal) or `base64` (standard, padded).",
    )
    .default("hex");
}

/**
 * Writes a digest in the requested encoding.
 *
 * @example
 * encodeDigest(Buffer.from([0xde, 0xad]), "hex"); // "dead"
 */
export function encodeDigest(digest: Buffer, encoding: DigestEncoding): string {
  return digest.toString(encoding);
}
