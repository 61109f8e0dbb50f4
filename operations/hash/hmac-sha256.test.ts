import { execute } from "../../src/core/runner.js";
import { describeHmac } from "./_hmac-suite.js";
import hmacSha256 from "./hmac-sha256.js";

// RFC 4231 section 4, HMAC-SHA-256 of test cases 1 to 7 (case 5: the first 128 bits).
describeHmac(
  hmacSha256,
  "sha256",
  64,
  [
    "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7",
    "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843",
    "773ea91e36800e46854db8ebd09181a72959098b3ef8c122d9635514ced565fe",
    "82558a389a443c0ea4cc819899f2083a85f0faa3e578f8077a2e3ff46729665b",
    "a3b6167473100ee06e0c796c2955552b",
    "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54",
    "9b09ffa71b942fcb27635fbcd5b0e944bfdc63644f0713938a7f51535c3a35e2",
  ],
  execute,
);
