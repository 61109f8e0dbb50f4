import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import jwtDecode from "./jwt-decode.js";

const b64url = (value: string | Buffer) => Buffer.from(value).toString("base64url");

/** A token signed with `secret` under `hash`, its header claiming `alg`. */
function sign(header: object, payload: object, secret: string, hash = "sha256"): string {
  const input = `${b64url(JSON.stringify(header))}.${b64url(JSON.stringify(payload))}`;
  return `${input}.${createHmac(hash, secret).update(input).digest("base64url")}`;
}

type Answer = Record<string, unknown> & { verified: boolean; verification: string };
const run = (input: Record<string, unknown>) => execute(jwtDecode, input) as Answer;

describe("crypto/jwt-decode", () => {
  itAnswersItsExamples(jwtDecode);

  it.each([
    ["HS256", "sha256"],
    ["HS384", "sha384"],
    ["HS512", "sha512"],
  ])("verifies %s", (alg, hash) => {
    const token = sign({ alg, typ: "JWT" }, { sub: "x" }, "s3cret", hash);
    expect(run({ token, secret: "s3cret" })).toMatchObject({
      verified: true,
      verification: "valid",
    });
    expect(run({ token, secret: "s3cret", algorithm: alg })).toMatchObject({ verified: true });
    expect(run({ token, secret: "other" })).toMatchObject({
      verified: false,
      verification: "invalid_signature",
    });
  });

  it("reads the secret's bytes as secretEncoding says", () => {
    const key = Buffer.from([0, 1, 2, 250, 255]);
    const input = `${b64url('{"alg":"HS256"}')}.${b64url("{}")}`;
    const token = `${input}.${createHmac("sha256", key).update(input).digest("base64url")}`;
    expect(run({ token, secret: key.toString("hex"), secretEncoding: "hex" }).verified).toBe(true);
    expect(run({ token, secret: key.toString("base64"), secretEncoding: "base64" }).verified).toBe(
      true,
    );
    expect(
      locTypes(problemsOf(jwtDecode, { token, secret: "xyz", secretEncoding: "hex" })),
    ).toEqual([[["secret"], "value_error"]]);
  });

  it.each([
    // The header's alg never picks a weaker check, whatever its spelling.
    [{ alg: "none" }, undefined, "alg_none"],
    [{ alg: "NONE" }, undefined, "alg_none"],
    [{ alg: "nOnE" }, "HS256", "alg_none"],
    [{ alg: "HS256" }, "HS512", "alg_mismatch"],
    [{ alg: "RS256" }, undefined, "unsupported_alg"],
    [{ alg: "RS256" }, "HS256", "alg_mismatch"],
    [{ alg: "toString" }, undefined, "unsupported_alg"],
    [{ alg: "__proto__" }, undefined, "unsupported_alg"],
    [{}, undefined, "unsupported_alg"],
    [{ alg: ["HS256"] }, undefined, "unsupported_alg"],
  ])("does not verify a header %j (expected %s): %s", (header, algorithm, verification) => {
    // Signed with HS256 and the right secret all the same: the header decides nothing weaker.
    const token = sign(header, { sub: "admin" }, "secret");
    expect(run({ token, secret: "secret", algorithm })).toMatchObject({
      verified: false,
      verification,
    });
  });

  it("verifies nothing without a secret", () => {
    const token = sign({ alg: "HS256" }, { sub: "x" }, "secret");
    expect(run({ token })).toMatchObject({ verified: false, verification: "not_checked" });
  });

  it("reads the registered claims", () => {
    const token = sign(
      { alg: "HS256", kid: "k1", typ: "JWT" },
      { iss: "me", sub: "you", aud: ["a", "b"], exp: 1700000000.5, nbf: 0, iat: "soon" },
      "s",
    );
    expect(run({ token })).toMatchObject({
      keyId: "k1",
      issuer: "me",
      subject: "you",
      audience: ["a", "b"],
      expiresAt: "2023-11-14T22:13:20.500Z",
      notBefore: "1970-01-01T00:00:00.000Z",
      issuedAt: null,
    });
    expect(run({ token: sign({ alg: "HS256" }, { aud: "one", exp: 1e300 }, "s") })).toMatchObject({
      audience: ["one"],
      expiresAt: null,
    });
  });

  it("answers the header and payload verbatim, even deeply nested", () => {
    const deep = `{"a":${"[".repeat(5000)}${"]".repeat(5000)}}`;
    const input = `${b64url('{"alg":"HS256"}')}.${b64url(deep)}`;
    const token = `${input}.${createHmac("sha256", "k").update(input).digest("base64url")}`;
    expect(run({ token, secret: "k" })).toMatchObject({ payload: deep, verified: true });
  });

  const header = b64url('{"alg":"HS256"}');
  it.each([
    ["two parts", `${header}.${b64url("{}")}`],
    ["four parts", `${header}.${b64url("{}")}.a.b`],
    ["JWE", "a.b.c.d.e"],
    ["padding", `${header}=.${b64url("{}")}.`],
    ["standard base64", `${header}.${Buffer.from("{}>?").toString("base64")}.`],
    ["4n+1 characters", `${header}.abcde.`],
    ["unused bits", `${header}.e30.Zh`],
    ["header not JSON", `${b64url("alg")}.${b64url("{}")}.`],
    ["header an array", `${b64url("[1]")}.${b64url("{}")}.`],
    ["payload not an object", `${header}.${b64url("42")}.`],
    ["payload not UTF-8", `${header}.${b64url(Buffer.from([0x22, 0xff, 0x22]))}.`],
  ])("refuses a token with %s (422 at token)", (_why, token) => {
    expect(locTypes(problemsOf(jwtDecode, { token }))).toEqual([[["token"], "value_error"]]);
  });

  it("keeps the answer within its declared bytes", () => {
    const payload = { q: '"\\'.repeat(2000), iss: '"\\'.repeat(500), sub: '"'.repeat(500) };
    const token = sign({ alg: "HS256", kid: '"'.repeat(200) }, payload, "s");
    const cost = jwtDecode.cost?.(jwtDecode.input.parse({ token }));
    expect(Buffer.byteLength(JSON.stringify(run({ token })))).toBeLessThanOrEqual(cost?.bytes ?? 0);
  });
});
