import { digestOperation } from "./_digest.js";

export default digestOperation({
  name: "sha1",
  nodeAlgorithm: "sha1",
  title: "SHA-1",
  standard: "FIPS 180-4, RFC 3174",
  digestBytes: 20,
  emptyDigest: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
  advice:
    "SHA-1 is broken against deliberate collisions (SHAttered, 2017): use it to check accidental " +
    "corruption or to match systems that already use it (Git object ids), not where an attacker " +
    "chooses the data.",
  examples: [
    {
      title: "FIPS 180 test vector: abc",
      input: { text: "abc" },
      output: {
        algorithm: "sha1",
        digest: "a9993e364706816aba3e25717850c26c9cd0d89d",
        encoding: "hex",
        textBytes: 3,
      },
    },
    {
      title: "The empty string",
      input: { text: "" },
      output: {
        algorithm: "sha1",
        digest: "da39a3ee5e6b4b0d3255bfef95601890afd80709",
        encoding: "hex",
        textBytes: 0,
      },
    },
    {
      title: "Binary input in hex, digest in base64",
      input: { text: "00ff10", textEncoding: "hex", encoding: "base64" },
      output: {
        algorithm: "sha1",
        digest: "oUwvuhcgHB6tRbbEr0QJ+/wWuoo=",
        encoding: "base64",
        textBytes: 3,
      },
    },
  ],
});
