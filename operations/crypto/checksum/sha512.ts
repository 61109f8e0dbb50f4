import { digestOperation } from "./_digest.js";

export default digestOperation({
  name: "sha512",
  nodeAlgorithm: "sha512",
  title: "SHA-512",
  standard: "FIPS 180-4",
  digestBytes: 64,
  emptyDigest:
    "cf83e1357eefb8bdf1542850d66d8007d620e4050b5715dc83f4a921d36ce9ce47d0d13c5d85f2b0ff8318d2877eec2f63b931bd47417a81a538327af927da3e",
  advice:
    "SHA-512 is collision-resistant as far as is publicly known. It is fast by design: do not " +
    "use a plain digest to store passwords, and use `hash/hmac-sha512` to authenticate a " +
    "message with a key.",
  examples: [
    {
      title: "FIPS 180 test vector: abc",
      input: { text: "abc" },
      output: {
        algorithm: "sha512",
        digest:
          "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f",
        encoding: "hex",
        textBytes: 3,
      },
    },
    {
      title: "Binary input in hex, digest in base64",
      input: { text: "00ff10", textEncoding: "hex", encoding: "base64" },
      output: {
        algorithm: "sha512",
        digest:
          "spqb1auy4uJ7kimOJC8olwSGvUnWmZ7ZKIANdJ/taf+ov0xYzeLLgAGNl+iJPqQGcEDPrIG/qJG+xySdSw+7Mw==",
        encoding: "base64",
        textBytes: 3,
      },
    },
  ],
});
