/**
 * Strict decoders that say where input goes wrong, the percent-encoding tables, and the
 * writing of decoded bytes, shared by the `encoding/*` operations. Bytes come in through
 * `hash/_bytes.ts` (the `textEncoding` convention of the hashes) and go out through
 * {@link writeBytes}.
 */
import { isUtf8 } from "node:buffer";
import { CalculationError, type Cost, z } from "#kit";
import { type DecodeResult, describeCharacter } from "../hash/_bytes.js";

/** How decoded bytes are written in the answer. */
export const OUTPUT_ENCODINGS = ["utf8", "hex", "base64"] as const;
export type OutputEncoding = (typeof OUTPUT_ENCODINGS)[number];

/**
 * The `encoding` parameter of a decoder (default `utf8`).
 *
 * @example
 * const input = z.object({ text: textParam("…"), encoding: outputEncodingParam() });
 */
export function outputEncodingParam() {
  return z
    .enum(OUTPUT_ENCODINGS)
    .describe(
      "How the decoded bytes are written: `utf8` (as text; refused with a 422 when they are not " +
        "valid UTF-8), `hex` (lowercase) or `base64` (standard, padded).",
    )
    .default("utf8");
}

/**
 * Where the first ill-formed UTF-8 sequence of `bytes` starts (the Unicode standard's
 * definition, table 3-7: no overlong forms, no surrogates, nothing past U+10FFFF), or -1.
 *
 * @example
 * firstInvalidUtf8(Buffer.from([0x61, 0xc3])); // 1: a two-byte sequence cut short
 */
export function firstInvalidUtf8(bytes: Uint8Array): number {
  const length = bytes.length;
  let i = 0;
  while (i < length) {
    const lead = bytes[i] as number;
    if (lead < 0x80) {
      i++;
      continue;
    }
    let follow: number;
    if (lead >= 0xc2 && lead <= 0xdf) follow = 1;
    else if (lead >= 0xe0 && lead <= 0xef) follow = 2;
    else if (lead >= 0xf0 && lead <= 0xf4) follow = 3;
    else return i;
    if (i + follow >= length) return i;
    // The second byte's range is narrower after some leads (overlong forms, surrogates, > U+10FFFF).
    const second = bytes[i + 1] as number;
    const low = lead === 0xe0 ? 0xa0 : lead === 0xf0 ? 0x90 : 0x80;
    const high = lead === 0xed ? 0x9f : lead === 0xf4 ? 0x8f : 0xbf;
    if (second < low || second > high) return i;
    for (let k = 2; k <= follow; k++) {
      if (((bytes[i + k] as number) & 0xc0) !== 0x80) return i;
    }
    i += follow + 1;
  }
  return -1;
}

const hexByte = (byte: number) => `0x${byte.toString(16).padStart(2, "0")}`;

/**
 * `bytes` written in `encoding`; bytes that are not UTF-8 asked for as `utf8` are refused
 * with a `CalculationError` at `encoding` naming the offset of the first bad sequence.
 *
 * @example
 * writeBytes(Buffer.from("hi"), "hex"); // "6869"
 */
export function writeBytes(bytes: Buffer, encoding: OutputEncoding): string {
  if (encoding !== "utf8") return bytes.toString(encoding);
  if (!isUtf8(bytes)) {
    const at = firstInvalidUtf8(bytes);
    throw new CalculationError(
      `the decoded bytes are not valid UTF-8: the sequence at byte offset ${at} ` +
        `(${hexByte(bytes[at] as number)}) is malformed or cut short; ask for encoding=hex or ` +
        "encoding=base64 to get the bytes",
      ["encoding"],
    );
  }
  // Buffer keeps a leading byte-order mark as U+FEFF (TextDecoder would drop it).
  return bytes.toString("utf8");
}

/**
 * Bytes of the JSON string that `byteCount` decoded bytes make in `encoding`, at most: as
 * `utf8`, a control byte is written as a 6-character `\u00XX` escape.
 *
 * @example
 * writtenBytes(3, "base64"); // 4 + 2 quotes
 */
export function writtenBytes(byteCount: number, encoding: OutputEncoding): number {
  const characters =
    encoding === "utf8"
      ? 6 * byteCount
      : encoding === "hex"
        ? 2 * byteCount
        : 4 * Math.ceil(byteCount / 3);
  return characters + 2;
}

/**
 * Work of reading one UTF-16 unit of a text (checking it, encoding it to UTF-8, decoding
 * it): at most ~30 ns measured, on 100,000 euro signs percent-decoded.
 */
export const CODEC_WORK_PER_UNIT = 30;

/** Work of writing one byte or character of the answer (a look-up and a copy, ~1-3 ns). */
export const CODEC_WORK_PER_CHARACTER = 5;

/**
 * The `cost` of a decoder: the work of reading `text`, and the answer's bytes for at most
 * `maxBytes` decoded bytes written in `encoding`.
 *
 * @example
 * cost: ({ text, encoding }) => decodingCost(text, Math.floor(text.length / 2), encoding),
 */
export function decodingCost(text: string, maxBytes: number, encoding: OutputEncoding): Cost {
  return {
    work: text.length * CODEC_WORK_PER_UNIT + maxBytes * CODEC_WORK_PER_CHARACTER,
    bytes: writtenBytes(maxBytes, encoding) + 256,
    loc: ["text"],
  };
}

/**
 * The `cost` of an encoder whose answer has at most `perByte` characters per input byte:
 * a UTF-16 unit is at most 3 bytes of UTF-8 (and a hex or base64 parameter fewer).
 *
 * @example
 * cost: ({ text }) => encodingCost(text, 2),
 */
export function encodingCost(text: string, perByte: number): Cost {
  const written = Math.ceil(3 * text.length * perByte);
  return {
    work: text.length * CODEC_WORK_PER_UNIT + written * CODEC_WORK_PER_CHARACTER,
    bytes: written + 256,
    loc: ["text"],
  };
}

/** The two RFC 4648 alphabets. */
export type Base64Alphabet = "base64" | "base64url";

const OUTSIDE: Record<Base64Alphabet, RegExp> = {
  base64: /[^A-Za-z0-9+/=]/,
  base64url: /[^A-Za-z0-9\-_=]/,
};

/** Why a character is refused, with a hint at its usual cause. */
function outsideAlphabet(text: string, index: number, alphabet: Base64Alphabet): string {
  const character = text.charAt(index);
  let hint = "";
  if (alphabet === "base64" && (character === "-" || character === "_")) {
    hint = " (it belongs to base64url: use encoding/base64url-decode)";
  } else if (alphabet === "base64url" && (character === "+" || character === "/")) {
    hint = " (it belongs to standard base64: use encoding/base64-decode)";
  } else if (character === " ") {
    hint =
      alphabet === "base64"
        ? " (a '+' sent unescaped in a URL arrives as a space: send it as %2B)"
        : " (whitespace and line breaks are not accepted)";
  } else if (character === "\n" || character === "\r" || character === "\t") {
    hint = " (whitespace and line breaks are not accepted)";
  }
  return `contains ${describeCharacter(text, index)}, which is not a ${alphabet} character${hint}`;
}

/**
 * Strict RFC 4648 base64 or base64url: padding may be left out but, when present, must be
 * right, and the unused low bits of the last character must be zero, so every byte string
 * has exactly one accepted spelling (with or without its padding). Every refusal names the
 * index (UTF-16 units) where the text goes wrong.
 *
 * @example
 * decodeBase64("SGk", "base64"); // { ok: true, bytes: <Buffer 48 69> }
 */
export function decodeBase64(text: string, alphabet: Base64Alphabet): DecodeResult {
  const bad = text.search(OUTSIDE[alphabet]);
  if (bad !== -1) return { ok: false, reason: outsideAlphabet(text, bad, alphabet) };
  const firstPad = text.indexOf("=");
  const body = firstPad === -1 ? text : text.slice(0, firstPad);
  if (firstPad !== -1) {
    for (let i = firstPad; i < text.length; i++) {
      if (text.charCodeAt(i) !== 0x3d) {
        return {
          ok: false,
          reason: `has '=' padding at index ${firstPad} followed by ${describeCharacter(text, i)}; padding may only end the text`,
        };
      }
    }
  }
  const rest = body.length % 4;
  if (rest === 1) {
    return {
      ok: false,
      reason: `ends with a group of one character (at index ${body.length - 1}); a group needs at least two to encode a byte`,
    };
  }
  const padding = text.length - body.length;
  const expected = (4 - rest) % 4;
  if (padding !== 0 && padding !== expected) {
    return {
      ok: false,
      reason:
        expected === 0
          ? `has padding at index ${firstPad}, but the ${body.length} characters before it make whole groups and need none`
          : `has the wrong padding at index ${firstPad}: ${body.length} characters need '${"=".repeat(expected)}'`,
    };
  }
  const bytes = Buffer.from(body, "base64");
  if (rest !== 0) {
    // Re-encoding gives the one canonical last character; any other leaves bits unused.
    const canonical = bytes.toString(alphabet).replace(/=+$/, "");
    const last = body.length - 1;
    if (canonical.charCodeAt(last) !== body.charCodeAt(last)) {
      return {
        ok: false,
        reason: `has non-zero unused bits in its last character ${describeCharacter(text, last)} (the canonical spelling ends in '${canonical.charAt(last)}')`,
      };
    }
  }
  return { ok: true, bytes };
}

const NOT_HEX_DIGIT = /[^0-9a-fA-F]/;

/**
 * Strict hexadecimal: pairs of digits, either case, nothing else (no `0x`, no spaces).
 *
 * @example
 * decodeHex("4869"); // { ok: true, bytes: <Buffer 48 69> }
 */
export function decodeHex(text: string): DecodeResult {
  const bad = text.search(NOT_HEX_DIGIT);
  if (bad !== -1) {
    const hint =
      bad === 1 && (text[1] === "x" || text[1] === "X")
        ? " (leave out the 0x prefix)"
        : text[bad] === " " || text[bad] === ":"
          ? " (separators are not accepted)"
          : "";
    return {
      ok: false,
      reason: `contains ${describeCharacter(text, bad)}, which is not a hexadecimal digit${hint}`,
    };
  }
  if (text.length % 2 !== 0) {
    return {
      ok: false,
      reason: `ends with a lone hexadecimal digit at index ${text.length - 1}; every byte needs two`,
    };
  }
  return { ok: true, bytes: Buffer.from(text, "hex") };
}

/** The two percent-encoding styles. */
export const PERCENT_MODES = ["component", "form"] as const;
export type PercentMode = (typeof PERCENT_MODES)[number];

/**
 * Each byte's spelling in each mode, built once: the byte itself when it is kept, `+` for
 * a form's space, otherwise -1 (written `%HH`).
 */
const KEPT: Record<PercentMode, Int16Array> = {
  component: new Int16Array(256).fill(-1),
  form: new Int16Array(256).fill(-1),
};
for (let byte = 0; byte < 256; byte++) {
  const character = String.fromCharCode(byte);
  const alphanumeric = /^[A-Za-z0-9]$/.test(character);
  if (alphanumeric || "-._~".includes(character)) KEPT.component[byte] = byte;
  if (alphanumeric || "*-._".includes(character)) KEPT.form[byte] = byte;
}
KEPT.form[0x20] = 0x2b;

const UPPER_HEX_DIGITS = Buffer.from("0123456789ABCDEF", "latin1");

/**
 * Percent-encodes `bytes`: `component` keeps RFC 3986's unreserved characters, `form` the
 * WHATWG application/x-www-form-urlencoded set, with a space as `+`. Written into one
 * buffer (concatenating a string per byte took ~40 ns a byte).
 *
 * @example
 * percentEncode(Buffer.from("a b&c"), "component"); // "a%20b%26c"
 */
export function percentEncode(bytes: Uint8Array, mode: PercentMode): string {
  const kept = KEPT[mode];
  const out = Buffer.allocUnsafe(3 * bytes.length);
  let length = 0;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i] as number;
    const spelling = kept[byte] as number;
    if (spelling >= 0) {
      out[length++] = spelling;
    } else {
      out[length++] = 0x25;
      out[length++] = UPPER_HEX_DIGITS[byte >> 4] as number;
      out[length++] = UPPER_HEX_DIGITS[byte & 15] as number;
    }
  }
  return out.toString("latin1", 0, length);
}

const MALFORMED_ESCAPE = /%(?![0-9A-Fa-f]{2})/;

function hexValue(code: number): number {
  return code <= 0x39 ? code - 0x30 : (code | 0x20) - 0x57;
}

/**
 * Percent-decodes `text` into bytes: each `%HH` is the byte HH, every other character its
 * UTF-8 bytes, and with `plusAsSpace` a `+` is a space. A `%` not followed by two
 * hexadecimal digits is refused, naming its index.
 *
 * @example
 * percentDecode("caf%C3%A9", false); // { ok: true, bytes: <Buffer 63 61 66 c3 a9> }
 */
export function percentDecode(text: string, plusAsSpace: boolean): DecodeResult {
  const bad = text.search(MALFORMED_ESCAPE);
  if (bad !== -1) {
    return {
      ok: false,
      reason: `has a '%' at index ${bad} not followed by two hexadecimal digits (write a literal '%' as %25)`,
    };
  }
  const source = Buffer.from(text, "utf8");
  const out = Buffer.allocUnsafe(source.length);
  let length = 0;
  for (let i = 0; i < source.length; i++) {
    const byte = source[i] as number;
    if (byte === 0x25) {
      out[length++] = (hexValue(source[i + 1] as number) << 4) | hexValue(source[i + 2] as number);
      i += 2;
    } else {
      out[length++] = plusAsSpace && byte === 0x2b ? 0x20 : byte;
    }
  }
  return { ok: true, bytes: out.subarray(0, length) };
}

/**
 * The answer schema every decoder shares: the bytes as `encoding` writes them, and their count.
 *
 * @example
 * defineOperation({ …, output: decodedOutput(), handler: ({ text, encoding }) => decodedAnswer(bytes, encoding) });
 */
export function decodedOutput() {
  return z.object({
    decoded: z.string().describe("The decoded bytes, written in `encoding`."),
    encoding: z.enum(OUTPUT_ENCODINGS).describe("How `decoded` is written."),
    decodedBytes: z.int().describe("Number of decoded bytes."),
  });
}

/**
 * A decoder's answer (see {@link decodedOutput}) for `bytes` written in `encoding`.
 *
 * @example
 * decodedAnswer(Buffer.from("hi"), "hex"); // { decoded: "6869", encoding: "hex", decodedBytes: 2 }
 */
export function decodedAnswer(bytes: Buffer, encoding: OutputEncoding) {
  return { decoded: writeBytes(bytes, encoding), encoding, decodedBytes: bytes.length };
}

/**
 * The bytes of a decode, or a `CalculationError` at `text` saying where it goes wrong.
 *
 * @example
 * const bytes = decodedOrRefused(decodeHex(text), "hexadecimal");
 */
export function decodedOrRefused(result: DecodeResult, what: string): Buffer {
  if (!result.ok)
    throw new CalculationError(`text is not valid ${what}: it ${result.reason}`, ["text"]);
  return result.bytes;
}
