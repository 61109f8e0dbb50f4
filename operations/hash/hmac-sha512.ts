import { hmacOperation } from "./_hmac.js";

export default hmacOperation({
  hash: "sha512",
  title: "SHA-512",
  blockBytes: 128,
  digestBytes: 64,
  examples: [
    {
      title: "RFC 4231 test case 2",
      input: { text: "what do ya want for nothing?", key: "Jefe" },
      output: {
        algorithm: "hmac-sha512",
        digest:
          "164b7a7bfcf819e2e395fbe73b56e0a387bd64222e831fd610270cd7ea2505549758bf75c05a994a6d034f65f8f0e6fdcaeab1a34d4a6b4b636e070a38bce737",
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
        algorithm: "hmac-sha512",
        digest:
          "87aa7cdea5ef619d4ff0b4241a1d6cb02379f4e2ce4ec2787ad0b30545e17cdedaa833b7d6b8a702038b274eaea3f4e4be9d914eeb61f1702e696c203a126854",
        encoding: "hex",
        textBytes: 8,
        keyBytes: 20,
      },
    },
    {
      title: "The digest in base64",
      input: { text: "what do ya want for nothing?", key: "Jefe", encoding: "base64" },
      output: {
        algorithm: "hmac-sha512",
        digest:
          "Fkt6e/z4GeLjlfvnO1bgo4e9ZCIugx/WECcM1+olBVSXWL91wFqZSm0DT2X48Ob9yuqxo01Ka0tjbgcKOLznNw==",
        encoding: "base64",
        textBytes: 28,
        keyBytes: 4,
      },
    },
  ],
});
