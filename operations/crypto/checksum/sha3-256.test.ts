import { describe, expect, it } from "vitest";
import { execute } from "../../../src/core/runner.js";
import { describeDigest } from "./_digest-suite.js";
import operation from "./sha3-256.js";

describe("crypto/checksum/sha3-256", () => {
  // NIST's SHA-3 examples (FIPS 202): the empty string, abc and the 448-bit message.
  it.each([
    ["", "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a"],
    ["abc", "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532"],
    [
      "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
      "41c0dba2a9d6240849100376a8235e2c82e1b9998a999e21db32dd97496d3376",
    ],
  ])("%j → %s", (text, digest) => {
    expect(execute(operation, { text })).toEqual({
      algorithm: "sha3-256",
      digest,
      encoding: "hex",
      textBytes: Buffer.byteLength(text),
    });
  });
});

describeDigest(operation, "sha3-256", execute);
