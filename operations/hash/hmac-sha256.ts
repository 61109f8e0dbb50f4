import { hmacOperation } from "./_hmac.js";

export default hmacOperation({
  hash: "sha256",
  title: "SHA-256",
  blockBytes: 64,
  digestBytes: 32,
  examples: [
    {
      title: "RFC 4231 test case 2",
      input: { text: "what do ya want for nothing?", key: "Jefe" },
      output: {
        algorithm: "hmac-sha256",
        digest: "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
        encoding: "hex",
        textBytes: 28,
        keyBytes: 4,
      },
    },
    {
      title: "RFC 4231 test case 1: a binary key given in hex",
      input: {
        text: "Hi There",
        key: "0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b0b",
        keyEncoding: "hex",
      },
      output: {
        algorithm: "hmac-sha256",
        digest: "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
        encoding: "hex",
        textBytes: 8,
        keyBytes: 20,
      },
    },
    {
      title: "The digest in base64",
      input: { text: "what do ya want for nothing?", key: "Jefe", encoding: "base64" },
      output: {
        algorithm: "hmac-sha256",
        digest: "W9zBRr9gdU5qBCQmCJV1x1oAPwidJzmDnexYuWTsOEM=",
        encoding: "base64",
        textBytes: 28,
        keyBytes: 4,
      },
    },
  ],
});
