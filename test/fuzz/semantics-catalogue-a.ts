/**
 * What the fuzz suite's schemas cannot say about the encoding, hash, id and color
 * operations of issue 36 (the `SEMANTICS` entries of test/fuzz/fuzz.test.ts, kept here so
 * that table stays readable). The validate/* operations need none: any text is answered.
 */
import fc from "fast-check";
import type { InvalidCombination, Values } from "./generators.js";

interface Semantics {
  why: string;
  refine?: (values: Values) => fc.Arbitrary<Values>;
  minOk?: number;
  invalid?: InvalidCombination[];
  random?: (values: Values) => boolean;
}

/** The fuzz suite's own helpers, passed in (they live in the test file). */
export interface FuzzHelpers {
  first: (values: Values, name: string) => string | undefined;
  encodedTexts: (pairs: [string, string][]) => (values: Values) => fc.Arbitrary<Values>;
  badEncoded: (text: string, encoding: string) => InvalidCombination;
}

/** Bytes a decoder may answer in `encoding`: any, or UTF-8 text when it writes utf8. */
function decodableBytes(encoding: string | undefined): fc.Arbitrary<Buffer> {
  if (encoding === "hex" || encoding === "base64") {
    return fc.uint8Array({ maxLength: 64 }).map((bytes) => Buffer.from(bytes));
  }
  return fc.string({ unit: "grapheme", maxLength: 40 }).map((text) => Buffer.from(text));
}

function decoderSemantics(
  first: FuzzHelpers["first"],
  write: (bytes: Buffer) => string,
  bad: string[],
  why: string,
): Semantics {
  return {
    why: `text must be valid ${why}, and decode to UTF-8 unless encoding is hex or base64 (else 422)`,
    refine: (values) =>
      decodableBytes(first(values, "encoding")).map((bytes) => ({
        ...values,
        text: [write(bytes)],
      })),
    invalid: [
      {
        target: "text",
        why: `text not valid ${why}`,
        values: fc.constantFrom(...bad).map((text) => ({ set: { text: [text] } })),
      },
      {
        target: "encoding",
        why: "bytes that are not UTF-8, asked for as utf8",
        values: fc
          .constantFrom(
            Buffer.from([0xff]),
            Buffer.from([0x61, 0xc3]),
            Buffer.from([0xed, 0xa0, 0x80]),
          )
          .map((bytes) => ({ set: { text: [write(bytes)], encoding: ["utf8"] } })),
      },
    ],
  };
}

const hexDigits = (bytes: Uint8Array) => Buffer.from(bytes).toString("hex");

/** Caller-given randomness of the right size; drawn bits (and the clock) answer at random. */
function idSemantics(
  first: FuzzHelpers["first"],
  bytesFor: (count: number) => number,
  timed: boolean,
): Semantics {
  return {
    why:
      "randomness must be hex of exactly the bytes the count needs, not so near the top that " +
      "counting on overflows; without it (or the timestamp) the answer is random",
    refine: (values) => {
      if (!values.randomness) return fc.constant(values);
      const count = Number(first(values, "count") ?? 1);
      return fc
        .uint8Array({ minLength: bytesFor(count), maxLength: bytesFor(count) })
        .map((bytes) => {
          // The top byte cleared: counting on through a batch cannot overflow.
          if (timed) bytes[0] = 0;
          return { ...values, randomness: [hexDigits(bytes)] };
        });
    },
    invalid: [
      {
        target: "randomness",
        why: "randomness that is not hex",
        values: fc.constantFrom("zz", "0x00", "abc").map((bad) => ({ set: { randomness: [bad] } })),
      },
    ],
    random: (values) => !values.randomness || (timed && !values.timestamp),
  };
}

const hexColor = fc
  .tuple(fc.boolean(), fc.boolean(), fc.uint8Array({ minLength: 3, maxLength: 3 }), fc.boolean())
  .map(([hash, short, bytes, upper]) => {
    const digits = short ? [...bytes].map((b) => (b & 15).toString(16)).join("") : hexDigits(bytes);
    return `${hash ? "#" : ""}${upper ? digits.toUpperCase() : digits}`;
  });

/** A decimal literal of 0 to 4 places within ±`max` (or 0 to `max`), written exactly. */
const boundedDecimal = (max: number, signed: boolean) =>
  fc.integer({ min: 0, max: 4 }).chain((places) =>
    fc.integer({ min: signed ? -max * 10 ** places : 0, max: max * 10 ** places }).map((scaled) => {
      const digits = String(Math.abs(scaled)).padStart(places + 1, "0");
      const whole = digits.slice(0, digits.length - places);
      const fraction = places === 0 ? "" : `.${digits.slice(digits.length - places)}`;
      return `${scaled < 0 ? "-" : ""}${whole}${fraction}`;
    }),
  );

const colorSemantics: Semantics = {
  why: "hex must be #rgb or #rrggbb (else 422 at hex)",
  refine: (values) => hexColor.map((hex) => ({ ...values, hex: [hex] })),
  invalid: [
    {
      target: "hex",
      why: "not a hex color",
      values: fc
        .constantFrom("#12345", "#1234", "#ggg", "red", "#")
        .map((hex) => ({ set: { hex: [hex] } })),
    },
  ],
};

const hslSemantics: Semantics = {
  why: "s and l are 0 to 100 and |h| ≤ 10^6, each with at most 10 decimal places (else 422)",
  refine: (values) =>
    fc
      .tuple(
        boundedDecimal(1_000_000, true),
        boundedDecimal(100, false),
        boundedDecimal(100, false),
      )
      .map(([h, s, l]) => ({ ...values, h: [h], s: [s], l: [l] })),
  invalid: [
    {
      target: "s",
      why: "saturation over 100",
      values: fc.integer({ min: 101, max: 10_000 }).map((s) => ({ set: { s: [String(s)] } })),
    },
    {
      target: "l",
      why: "lightness over 100",
      values: fc.integer({ min: 101, max: 10_000 }).map((l) => ({ set: { l: [String(l)] } })),
    },
  ],
};

/** The entries, keyed by path. */
export function catalogueSemanticsA({
  first,
  encodedTexts,
  badEncoded,
}: FuzzHelpers): Record<string, Semantics> {
  const hashed: Semantics = {
    why: "with textEncoding hex or base64, text must be valid hex/base64 (else 422)",
    refine: encodedTexts([["text", "textEncoding"]]),
    invalid: [badEncoded("text", "textEncoding")],
  };
  const hmac: Semantics = {
    why: "with textEncoding/keyEncoding hex or base64, text/key must be valid hex/base64 (else 422)",
    refine: encodedTexts([
      ["text", "textEncoding"],
      ["key", "keyEncoding"],
    ]),
    invalid: [badEncoded("text", "textEncoding"), badEncoded("key", "keyEncoding")],
  };
  const base64Bad = [
    "a",
    "abcde",
    "ab=c",
    "abc==",
    "*abc",
    "ab c",
    "Zh==",
    "Zg=",
    "=",
    "Zm9v\u00e9",
  ];
  return {
    "/v1/crypto/checksum/sha1": hashed,
    "/v1/crypto/checksum/sha256": hashed,
    "/v1/crypto/checksum/sha512": hashed,
    "/v1/crypto/checksum/sha3-256": hashed,
    "/v1/crypto/checksum/crc32": hashed,
    "/v1/hash/hmac-sha256": hmac,
    "/v1/hash/hmac-sha512": hmac,
    "/v1/encoding/base64-encode": hashed,
    "/v1/encoding/base64url-encode": hashed,
    "/v1/encoding/hex-encode": hashed,
    "/v1/encoding/url-encode": hashed,
    "/v1/encoding/base64-decode": decoderSemantics(
      first,
      (bytes) => bytes.toString("base64"),
      base64Bad,
      "base64",
    ),
    "/v1/encoding/base64url-decode": decoderSemantics(
      first,
      (bytes) => bytes.toString("base64url"),
      [...base64Bad, "+/8=", "ab/c"],
      "base64url",
    ),
    "/v1/encoding/hex-decode": decoderSemantics(
      first,
      (bytes) => bytes.toString("hex"),
      ["a", "abc", "zz", "0x00", "ab cd", "é1", "0g"],
      "hexadecimal",
    ),
    "/v1/encoding/url-decode": decoderSemantics(
      first,
      (bytes) => [...bytes].map((byte) => `%${byte.toString(16).padStart(2, "0")}`).join(""),
      ["%", "%zz", "abc%2", "100%", "%4"],
      "percent-encoding",
    ),
    "/v1/id/uuid-v4": idSemantics(first, (count) => 16 * count, false),
    "/v1/id/uuid-v7": idSemantics(first, () => 10, true),
    "/v1/id/ulid": idSemantics(first, () => 10, true),
    "/v1/color/hex-to-rgb": colorSemantics,
    "/v1/color/hex-to-hsl": colorSemantics,
    "/v1/color/hsl-to-rgb": hslSemantics,
    "/v1/color/hsl-to-hex": hslSemantics,
  };
}
