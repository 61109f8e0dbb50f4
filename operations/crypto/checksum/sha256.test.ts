import { describe, expect, it } from "vitest";
import { execute } from "../../../src/core/runner.js";
import { describeDigest } from "./_digest-suite.js";
import operation from "./sha256.js";

describe("crypto/checksum/sha256", () => {
  // FIPS 180-2 appendix B: the standard's examples.
  it.each([
    ["", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"],
    ["abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1",
    ],
  ])("%j → %s", (text, digest) => {
    expect(execute(operation, { text })).toEqual({
      algorithm: "sha256",
      digest,
      encoding: "hex",
      textBytes: Buffer.byteLength(text),
    });
  });
});

describeDigest(operation, "sha256", execute);
