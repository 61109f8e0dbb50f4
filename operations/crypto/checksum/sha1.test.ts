import { describe, expect, it } from "vitest";
import { execute } from "../../../src/core/runner.js";
import { describeDigest } from "./_digest-suite.js";
import operation from "./sha1.js";

describe("crypto/checksum/sha1", () => {
  // FIPS 180-2 appendix A and RFC 3174 section 7.3: the standard's examples.
  it.each([
    ["", "da39a3ee5e6b4b0d3255bfef95601890afd80709"],
    ["abc", "a9993e364706816aba3e25717850c26c9cd0d89d"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "84983e441c3bd26ebaae4aa1f95129e5e54670f1",
    ],
    ["01234567".repeat(80), "dea356a2cddd90c7a7ecedc5ebb563934f460452"],
  ])("%j → %s", (text, digest) => {
    expect(execute(operation, { text })).toEqual({
      algorithm: "sha1",
      digest,
      encoding: "hex",
      textBytes: Buffer.byteLength(text),
    });
  });
});

describeDigest(operation, "sha1", execute);
