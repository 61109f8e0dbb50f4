import { describe, expect, it } from "vitest";
import { execute } from "../../../src/core/runner.js";
import { describeDigest } from "./_digest-suite.js";
import operation from "./sha512.js";

describe("crypto/checksum/sha512", () => {
  // FIPS 180-2 appendix C: the standard's examples.
  it.each([
    [
      "",
      "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
    ],
    [
      "abc",
      "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
    ],
    [
      "abcdefghbcdefghicdefghijdefghijkefghijklfghijklmghijklmnhijklmnoijklmnopjklmnopqklmnopqrlmnopqrsmnopqrstnopqrstu",
      "8e959b75dae313da8cf4f72814fc143f8f7779c6eb9f7fa17299aeadb6889018501d289e4900f7e4331b99dec4b5433ac7d329eeb6dd26545e96e55b874be909",
    ],
  ])("%j → %s", (text, digest) => {
    expect(execute(operation, { text })).toEqual({
      algorithm: "sha512",
      digest,
      encoding: "hex",
      textBytes: Buffer.byteLength(text),
    });
  });
});

describeDigest(operation, "sha512", execute);
