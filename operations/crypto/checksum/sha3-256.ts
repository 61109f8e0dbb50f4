import { digestOperation } from "./_digest.js";

export default digestOperation({
  name: "sha3-256",
  nodeAlgorithm: "sha3-256",
  title: "SHA3-256",
  standard: "FIPS 202",
  digestBytes: 32,
  emptyDigest: "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
  advice:
    "This is the standardised SHA-3 (FIPS 202, padding byte 0x06), not the original Keccak-256 " +
    "that Ethereum uses (padding 0x01): the two give different digests for the same bytes.",
  examples: [
    {
      title: "FIPS 202 test vector: abc",
      input: { text: "abc" },
      output: {
        algorithm: "sha3-256",
        digest: "3a985da74fe225b2045c172d6bd390bd855f086e3e9d525b46bfe24511431532",
        encoding: "hex",
        textBytes: 3,
      },
    },
    {
      title: "The empty string",
      input: { text: "" },
      output: {
        algorithm: "sha3-256",
        digest: "a7ffc6f8bf1ed76651c14756a061d662f580ff4de43b49fa82d80a4b80f8434a",
        encoding: "hex",
        textBytes: 0,
      },
    },
    {
      title: "Binary input in hex, digest in base64",
      input: { text: "00ff10", textEncoding: "hex", encoding: "base64" },
      output: {
        algorithm: "sha3-256",
        digest: "hTPvC1vtEiHGgiXgHNO1ncuM1ZkxEbLtakaUY2Ax4Lg=",
        encoding: "base64",
        textBytes: 3,
      },
    },
  ],
});
