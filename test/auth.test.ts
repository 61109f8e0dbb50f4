/** The API-key layer, on every operation route, before any validation. */
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createKeyChecker, staticKeys } from "../src/access/keys.js";
import { pathOf } from "../src/core/path.js";
import { keyIdOf } from "../src/http/auth.js";
import { allOperations, TEST_KEY, testApp } from "./helpers.js";

const operations = await allOperations();
let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

const refusals: [string, Record<string, string | string[]>, string][] = [
  ["no header", {}, "Missing API key: send it in the X-API-Key header"],
  ["wrong key", { "x-api-key": "wrong" }, "Invalid API key"],
  ["key with a suffix", { "x-api-key": `${TEST_KEY}x` }, "Invalid API key"],
  ["key prefix", { "x-api-key": TEST_KEY.slice(0, -1) }, "Invalid API key"],
  ["empty key", { "x-api-key": "" }, "Empty API key"],
  ["duplicated header", { "x-api-key": [TEST_KEY, TEST_KEY] }, "Send exactly one X-API-Key header"],
  [
    "key in another header",
    { authorization: `Bearer ${TEST_KEY}` },
    "Missing API key: send it in the X-API-Key header",
  ],
];

describe.each(operations.map((o) => [pathOf(o)] as const))("%s", (path) => {
  it.each(refusals)("%s → 401, even with invalid parameters", async (_why, headers, detail) => {
    const response = await app.inject({ url: `${path}?bogus=%FF&numbers=NaN`, headers });
    expect(response.statusCode).toBe(401);
    expect(response.json()).toEqual({ detail });
    expect(response.headers["www-authenticate"]).toMatch(/^APIKey /);
  });

  it("the right key passes the layer (then validation answers)", async () => {
    const response = await app.inject({
      url: `${path}?bogus=1`,
      headers: { "x-api-key": TEST_KEY },
    });
    expect(response.statusCode).toBe(422);
  });
});

describe("service endpoints need no key", () => {
  it.each(["/health", "/openapi.json", "/docs"])("%s", async (url) => {
    expect((await app.inject({ url })).statusCode).toBe(200);
  });
});

describe("createKeyChecker", () => {
  const check = createKeyChecker([staticKeys(["alpha", "beta-key"])]);
  it.each([
    ["alpha", true],
    ["beta-key", true],
    ["ALPHA", false],
    ["alph", false],
    ["alpha ", false],
    ["alpha, beta-key", false],
    ["alpha\u0000", false],
    ["a".repeat(10_000), false],
    [42, false],
  ])("%j → %s", (key, ok) => {
    expect(check(key).ok).toBe(ok);
  });

  it("tells keys apart whatever their lengths (longer than the 256-byte slot, non-ASCII)", () => {
    const long = "k".repeat(300);
    const keys = [long, "é-key", "z"];
    const many = createKeyChecker([staticKeys(keys)]);
    for (const key of keys) {
      const result = many(key);
      expect(result.ok && result.principal.id).toBe(keyIdOf(key));
    }
    for (const other of [long.slice(1), `${long}k`, "e-key", "é-ke", "", "zz"]) {
      expect(many(other).ok).toBe(false);
    }
  });

  it("answers after a refusal as before it (the scratch slot keeps nothing)", () => {
    expect(check("a".repeat(10_000)).ok).toBe(false);
    expect(check("alpha").ok).toBe(true);
    expect(check("alph").ok).toBe(false);
  });

  it("identifies a key by a hash, never by the key", () => {
    const result = check("alpha");
    expect(result.ok && result.principal.id).toBe(keyIdOf("alpha"));
    expect(keyIdOf("alpha")).toMatch(/^[0-9a-f]{12}$/);
    expect(keyIdOf("alpha")).not.toContain("alpha");
  });
});
