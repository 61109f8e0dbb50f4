import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  decodeBase64,
  decodeHex,
  firstInvalidUtf8,
  percentDecode,
  percentEncode,
  writeBytes,
  writtenBytes,
} from "./_codec.js";

const fatal = new TextDecoder("utf-8", { fatal: true });
const isValid = (bytes: Uint8Array) => {
  try {
    fatal.decode(bytes);
    return true;
  } catch {
    return false;
  }
};

describe("encoding/_codec", () => {
  it.each([
    [[0x61, 0x62], -1],
    [[0x61, 0xc3], 1],
    [[0xc0, 0x80], 0], // overlong NUL
    [[0xe0, 0x80, 0x80], 0], // overlong
    [[0xed, 0xa0, 0x80], 0], // a surrogate
    [[0xf4, 0x90, 0x80, 0x80], 0], // past U+10FFFF
    [[0xf0, 0x9f, 0x98, 0x80], -1], // 😀
    [[0x61, 0xe2, 0x82], 1], // € cut short
    [[0x61, 0xff], 1],
    [[0xe2, 0x82, 0x61], 0],
  ])("firstInvalidUtf8(%j) = %i", (bytes, at) => {
    expect(firstInvalidUtf8(new Uint8Array(bytes))).toBe(at);
  });

  it("agrees with a fatal TextDecoder, and points at a byte after which the rest fails", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (bytes) => {
        const at = firstInvalidUtf8(bytes);
        expect(at === -1).toBe(isValid(bytes));
        if (at !== -1) {
          expect(isValid(bytes.subarray(0, at))).toBe(true);
          expect(isValid(bytes.subarray(0, at + 4))).toBe(false);
        }
      }),
      { seed: 20261127, numRuns: 3000 },
    );
  });

  it("refuses non-UTF-8 as utf8 naming the offset, and writes it in hex", () => {
    expect(() => writeBytes(Buffer.from([0x61, 0xff]), "utf8")).toThrow(
      /not valid UTF-8: the sequence at byte offset 1 \(0xff\)/,
    );
    expect(writeBytes(Buffer.from([0x61, 0xff]), "hex")).toBe("61ff");
    expect(writeBytes(Buffer.from([0xef, 0xbb, 0xbf, 0x61]), "utf8")).toBe("\uFEFFa");
  });

  it("bounds the JSON of any written bytes", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 60 }), (raw) => {
        const bytes = Buffer.from(raw);
        for (const encoding of ["hex", "base64"] as const) {
          expect(JSON.stringify(writeBytes(bytes, encoding)).length).toBeLessThanOrEqual(
            writtenBytes(bytes.length, encoding),
          );
        }
        if (isValid(bytes)) {
          const json = JSON.stringify(writeBytes(bytes, "utf8"));
          expect(Buffer.byteLength(json)).toBeLessThanOrEqual(writtenBytes(bytes.length, "utf8"));
        }
      }),
      { seed: 20261127, numRuns: 1000 },
    );
  });

  it("percent-encodes as the WHATWG form serializer and encodeURIComponent do", () => {
    fc.assert(
      fc.property(fc.string({ unit: "grapheme", maxLength: 30 }), (text) => {
        const bytes = Buffer.from(text);
        const form = new URLSearchParams({ a: text }).toString().slice(2);
        expect(percentEncode(bytes, "form")).toBe(form);
        const component = encodeURIComponent(text).replace(
          /[!'()*]/g,
          (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
        );
        expect(percentEncode(bytes, "component")).toBe(component);
        expect(percentDecode(component, false)).toEqual({ ok: true, bytes });
        expect(percentDecode(form, true)).toEqual({ ok: true, bytes });
      }),
      { seed: 20261127, numRuns: 1000 },
    );
  });

  it("decodes the strict forms it writes, and nothing else", () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 40 }), (raw) => {
        const bytes = Buffer.from(raw);
        expect(decodeHex(bytes.toString("hex"))).toEqual({ ok: true, bytes });
        expect(decodeBase64(bytes.toString("base64"), "base64")).toEqual({ ok: true, bytes });
        expect(decodeBase64(bytes.toString("base64url"), "base64url")).toEqual({
          ok: true,
          bytes,
        });
      }),
      { seed: 20261127, numRuns: 1000 },
    );
  });
});
