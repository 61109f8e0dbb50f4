import { digestOperation } from "./_digest.js";

export default digestOperation({
  name: "sha256",
  nodeAlgorithm: "sha256",
  title: "SHA-256",
  standard: "FIPS 180-4",
  digestBytes: 32,
  emptyDigest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
  advice:
    "SHA-256 is collision-resistant as far as is publicly known. It is fast by design: do not " +
    "use a plain digest to store passwords, and use `hash/hmac-sha256` to authenticate a " +
    "message with a key (a digest of key and message concatenated is open to length extension).",
  examples: [
    {
      title: "FIPS 180 test vector: abc",
      input: { text: "abc" },
      output: {
        algorithm: "sha256",
        digest: "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad",
        encoding: "hex",
        textBytes: 3,
      },
    },
    {
      title: "The empty string",
      input: { text: "" },
      output: {
        algorithm: "sha256",
        digest: "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855",
        encoding: "hex",
        textBytes: 0,
      },
    },
    {
      title: "Binary input in hex, digest in base64",
      input: { text: "00ff10", textEncoding: "hex", encoding: "base64" },
      output: {
        algorithm: "sha256",
        digest: "LaRfLNH5yOaaZ6v3prJsKCUz0KdoZ4epUzJlQYaA1NI=",
        encoding: "base64",
        textBytes: 3,
      },
    },
  ],
});
