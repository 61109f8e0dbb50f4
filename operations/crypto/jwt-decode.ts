import { createHmac, timingSafeEqual } from "node:crypto";
import { CalculationError, defineOperation, text, z } from "#kit";
import { checkDecodable, inputEncodingParam, toBytes } from "../hash/_bytes.js";

/** Longest token accepted, in characters: far above any header-borne token. */
const MAX_TOKEN_LENGTH = 16_384;
const MAX_SECRET_LENGTH = 4_096;

const HMAC_ALGORITHMS = { HS256: "sha256", HS384: "sha384", HS512: "sha512" } as const;
type HmacAlgorithm = keyof typeof HMAC_ALGORITHMS;
const HMAC_NAMES = Object.keys(HMAC_ALGORITHMS) as [HmacAlgorithm, ...HmacAlgorithm[]];

const VERIFICATIONS = [
  "not_checked",
  "valid",
  "invalid_signature",
  "alg_none",
  "alg_mismatch",
  "unsupported_alg",
] as const;
type Verification = (typeof VERIFICATIONS)[number];

const BASE64URL = /^[A-Za-z0-9_-]*$/;

/** Strict base64url without padding (RFC 7515 §2): one spelling per byte string. */
function decodeSegment(segment: string, what: string): Buffer {
  const bad = segment.search(/[^A-Za-z0-9_-]/);
  if (!BASE64URL.test(segment)) {
    const shown =
      segment.charAt(bad) === "=" ? "'=' (JWTs are not padded)" : `'${segment.charAt(bad)}'`;
    throw new CalculationError(`the ${what} holds ${shown}, which is not base64url`, ["token"]);
  }
  if (segment.length % 4 === 1) {
    throw new CalculationError(`the ${what} has a length of 4n+1, which no bytes encode to`, [
      "token",
    ]);
  }
  const bytes = Buffer.from(segment, "base64url");
  if (bytes.toString("base64url") !== segment) {
    throw new CalculationError(`the ${what} has non-zero unused bits in its last character`, [
      "token",
    ]);
  }
  return bytes;
}

const UTF8 = new TextDecoder("utf-8", { fatal: true });

/** A segment's JSON text and object, or a 422 saying what is wrong with it. */
function jsonObject(
  bytes: Buffer,
  what: string,
): { json: string; object: Record<string, unknown> } {
  let json: string;
  let parsed: unknown;
  try {
    json = UTF8.decode(bytes);
    parsed = JSON.parse(json);
  } catch {
    throw new CalculationError(`the ${what} is not JSON in UTF-8`, ["token"]);
  }
  if (parsed === null || typeof parsed !== "object" || Array.isArray(parsed)) {
    throw new CalculationError(`the ${what} is JSON but not an object`, ["token"]);
  }
  return { json, object: parsed as Record<string, unknown> };
}

/** A NumericDate claim (seconds since the epoch) as an ISO 8601 instant, or null. */
function numericDate(value: unknown): string | null {
  if (typeof value !== "number" || !Number.isFinite(value)) return null;
  const milliseconds = Math.floor(value * 1000);
  // Date's range: ±8.64e15 ms.
  if (Math.abs(milliseconds) > 8.64e15) return null;
  return new Date(milliseconds).toISOString();
}

const stringOrNull = (value: unknown) => (typeof value === "string" ? value : null);

function audience(value: unknown): string[] | null {
  if (typeof value === "string") return [value];
  if (Array.isArray(value) && value.every((item) => typeof item === "string")) return value;
  return null;
}

function verify(
  alg: unknown,
  expected: HmacAlgorithm | undefined,
  signingInput: string,
  signature: Buffer,
  secret: Buffer,
): Verification {
  if (typeof alg === "string" && alg.toLowerCase() === "none") return "alg_none";
  if (expected !== undefined && alg !== expected) return "alg_mismatch";
  if (typeof alg !== "string" || !Object.hasOwn(HMAC_ALGORITHMS, alg)) return "unsupported_alg";
  const digest = createHmac(HMAC_ALGORITHMS[alg as HmacAlgorithm], secret)
    .update(signingInput)
    .digest();
  // The length of a signature is public; its bytes are compared in constant time.
  return digest.length === signature.length && timingSafeEqual(digest, signature)
    ? "valid"
    : "invalid_signature";
}

export default defineOperation({
  area: "crypto",
  name: "jwt-decode",
  summary: "Decode a JWT's header and payload; verify an HS256/384/512 signature",
  description: [
    "Decodes a JSON Web Token in JWS compact form (`header.payload.signature`, each part " +
      "base64url without padding): `header` and `payload` are answered as the JSON text they " +
      "decode to, verbatim (what was signed), with the registered claims read out: `issuer` (`iss`), `subject` (`sub`), " +
      "`audience` (`aud`, always a list), and `expiresAt`, `notBefore`, `issuedAt` (`exp`, `nbf`, " +
      "`iat`, NumericDates) as ISO 8601 instants to the millisecond. Whether the token has expired " +
      "is not answered: that depends on the current time, which an operation never reads; compare " +
      "`expiresAt` with your clock.",
    "Decoding alone proves nothing: anyone can write a token. With `secret` (its bytes as " +
      "`secretEncoding` says: `utf8`, `hex` or `base64`), the HMAC signature is verified " +
      "(HS256, HS384, HS512; compared in constant time) and `verified` is true only when it matches. " +
      "`verification` says why not otherwise: `not_checked` (no secret), `invalid_signature`, " +
      "`alg_none` (an unsigned token is never valid), `alg_mismatch` (the header's `alg` is not " +
      "`algorithm`, when you name the one you expect, which you should), `unsupported_alg` (RS256, " +
      "ES256 and others need a public key: not offered). The header's `alg` never chooses a weaker " +
      "check than the one asked for.",
    "A token that is not three base64url parts, whose header or payload is not a JSON object in " +
      "UTF-8, or that is an encrypted JWE (five parts), is a 422 at `token`. The token is at most " +
      "16,384 characters, the secret 4,096.",
  ].join("\n\n"),
  input: z
    .object({
      token: text({
        min: 1,
        max: MAX_TOKEN_LENGTH,
        description: "The JWT, `header.payload.signature`.",
      }),
      secret: text({
        max: MAX_SECRET_LENGTH,
        description:
          "The HMAC secret to verify the signature with; without it, nothing is verified.",
      }).optional(),
      secretEncoding: inputEncodingParam("secret"),
      algorithm: z
        .enum(HMAC_NAMES)
        .optional()
        .describe(
          "The algorithm you expect (HS256, HS384, HS512); a token claiming another fails.",
        ),
    })
    .superRefine((input, ctx) => {
      if (input.secret !== undefined) {
        checkDecodable(ctx, "secret", input.secret, input.secretEncoding);
      }
    }),
  output: z.object({
    header: z.string().describe("The header: its JSON text, as decoded."),
    payload: z.string().describe("The payload (claims): its JSON text, as decoded."),
    algorithm: z
      .string()
      .nullable()
      .describe("The header's `alg`, or null when it is not a string."),
    type: z.string().nullable().describe("The header's `typ`, or null."),
    keyId: z.string().nullable().describe("The header's `kid`, or null."),
    issuer: z.string().nullable().describe("The `iss` claim, or null."),
    subject: z.string().nullable().describe("The `sub` claim, or null."),
    audience: z.array(z.string()).nullable().describe("The `aud` claim as a list, or null."),
    expiresAt: z.string().nullable().describe("The `exp` claim as an ISO 8601 instant, or null."),
    notBefore: z.string().nullable().describe("The `nbf` claim as an ISO 8601 instant, or null."),
    issuedAt: z.string().nullable().describe("The `iat` claim as an ISO 8601 instant, or null."),
    signature: z.string().describe("The signature part, base64url, as sent."),
    verified: z
      .boolean()
      .describe("True only when a secret was given and the HMAC signature matches."),
    verification: z.enum(VERIFICATIONS).describe("Why `verified` is what it is."),
  }),
  examples: [
    {
      title: "Verified with its HS256 secret",
      input: {
        token:
          "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiIxMjM0NTY3ODkwIiwibmFtZSI6IkpvaG4gRG9lIiwiaWF0IjoxNTE2MjM5MDIyfQ.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        secret: "your-256-bit-secret",
        algorithm: "HS256",
      },
      output: {
        header: '{"alg":"HS256","typ":"JWT"}',
        payload: '{"sub":"1234567890","name":"John Doe","iat":1516239022}',
        algorithm: "HS256",
        type: "JWT",
        keyId: null,
        issuer: null,
        subject: "1234567890",
        audience: null,
        expiresAt: null,
        notBefore: null,
        issuedAt: "2018-01-18T01:30:22.000Z",
        signature: "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c",
        verified: true,
        verification: "valid",
      },
    },
    {
      title: "An unsigned token (alg none) is never verified",
      input: {
        token: "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhZG1pbiJ9.",
        secret: "anything",
      },
      output: {
        header: '{"alg":"none"}',
        payload: '{"sub":"admin"}',
        algorithm: "none",
        type: null,
        keyId: null,
        issuer: null,
        subject: "admin",
        audience: null,
        expiresAt: null,
        notBefore: null,
        issuedAt: null,
        signature: "",
        verified: false,
        verification: "alg_none",
      },
    },
  ],
  // Decoding, parsing and one HMAC are linear in the token; the answer repeats the header and
  // payload (3/4 of the token, each character at most 6 when escaped: 9/2 in all) and claims
  // taken from them.
  cost: ({ token, secret }) => ({
    work: 50 * (token.length + (secret?.length ?? 0)) + 20_000,
    bytes: 7 * token.length + 2_048,
    loc: ["token"],
  }),
  handler: ({ token, secret, secretEncoding, algorithm }) => {
    const parts = token.split(".");
    if (parts.length === 5) {
      throw new CalculationError("the token is an encrypted JWE (five parts), not a signed JWT", [
        "token",
      ]);
    }
    if (parts.length !== 3) {
      throw new CalculationError(
        `a JWT has three parts separated by '.', this token has ${parts.length}`,
        ["token"],
      );
    }
    const [headerPart, payloadPart, signaturePart] = parts as [string, string, string];
    const { json: headerJson, object: header } = jsonObject(
      decodeSegment(headerPart, "header"),
      "header",
    );
    const { json: payloadJson, object: payload } = jsonObject(
      decodeSegment(payloadPart, "payload"),
      "payload",
    );
    const signature = decodeSegment(signaturePart, "signature");
    const verification =
      secret === undefined
        ? "not_checked"
        : verify(
            header.alg,
            algorithm,
            `${headerPart}.${payloadPart}`,
            signature,
            toBytes(secret, secretEncoding),
          );
    return {
      // Verbatim: what was signed. (Re-serialising a deeply nested token overflows the stack.)
      header: headerJson,
      payload: payloadJson,
      algorithm: stringOrNull(header.alg),
      type: stringOrNull(header.typ),
      keyId: stringOrNull(header.kid),
      issuer: stringOrNull(payload.iss),
      subject: stringOrNull(payload.sub),
      audience: audience(payload.aud),
      expiresAt: numericDate(payload.exp),
      notBefore: numericDate(payload.nbf),
      issuedAt: numericDate(payload.iat),
      signature: signaturePart,
      verified: verification === "valid",
      verification,
    };
  },
});
