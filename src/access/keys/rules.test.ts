import { describe, expect, it } from "vitest";
import {
  keyCreateBody,
  keyListQuery,
  keyObjectOf,
  keyPatchBody,
  MAX_META_BYTES,
  MAX_NAME_LENGTH,
  MAX_OVERLAP_SECONDS,
  rollBody,
  usageQuery,
  usageRange,
} from "./rules.js";

const paths = (result: { success: boolean; error?: { issues: { path: PropertyKey[] }[] } }) =>
  result.success ? [] : (result.error?.issues ?? []).map((issue) => issue.path.join("."));

describe("keyCreateBody", () => {
  it("takes a name alone, and every field at its bounds", () => {
    expect(keyCreateBody.parse({ name: "ci" })).toEqual({
      name: "ci",
      scopes: ["*"],
      plan: null,
      expiresAt: null,
      meta: {},
    });
    const meta = { note: "x".repeat(MAX_META_BYTES - '{"note":""}'.length) };
    const full = {
      name: "n".repeat(MAX_NAME_LENGTH),
      scopes: ["*", "math", "hash/hmac-md5", "crypto/checksum/md5"],
      plan: { limit: 1, windowSeconds: 86_400 },
      expiresAt: "2027-01-31T00:00:00.5+02:00",
      meta,
    };
    expect(keyCreateBody.parse(full)).toEqual(full);
  });

  it("refuses each field out of its bounds, and fields it does not know", () => {
    const result = keyCreateBody.safeParse({
      name: "n".repeat(MAX_NAME_LENGTH + 1),
      scopes: ["Math", "math/", "a b", "*x"],
      plan: { limit: 0, windowSeconds: 86_401 },
      expiresAt: "2027-01-31T00:00:00",
      meta: { note: "é".repeat(MAX_META_BYTES / 2) },
      disabled: true,
    });
    expect(paths(result)).toEqual([
      "name",
      "scopes.0",
      "scopes.1",
      "scopes.2",
      "scopes.3",
      "plan.limit",
      "plan.windowSeconds",
      "expiresAt",
      "meta",
      "",
    ]);
    expect(paths(keyCreateBody.safeParse({}))).toEqual(["name"]);
    expect(paths(keyCreateBody.safeParse({ name: "" }))).toEqual(["name"]);
    expect(paths(keyCreateBody.safeParse({ name: "a", meta: [] }))).toEqual(["meta"]);
    expect(paths(keyCreateBody.safeParse({ name: "a", scopes: [] }))).toEqual(["scopes"]);
    // Spelled as the registry spells names: a letter first, no empty segment.
    expect(
      paths(keyCreateBody.safeParse({ name: "a", scopes: ["9a", "-a", "a//b", "a/", "a/-b"] })),
    ).toEqual(["scopes.0", "scopes.1", "scopes.2", "scopes.3", "scopes.4"]);
    expect(
      paths(keyCreateBody.safeParse({ name: "a", expiresAt: "2020-01-01T00:00:00Z" })),
    ).toEqual(["expiresAt"]);
    expect(
      paths(keyCreateBody.safeParse({ name: "a", plan: { limit: 1.5, windowSeconds: 1 } })),
    ).toEqual(["plan.limit"]);
  });
});

describe("keyPatchBody and rollBody", () => {
  it("null plan and expiry mean the default and never; unknown fields are refused", () => {
    expect(keyPatchBody.parse({ plan: null, expiresAt: null, disabled: true })).toEqual({
      plan: null,
      expiresAt: null,
      disabled: true,
    });
    expect(keyPatchBody.parse({})).toEqual({});
    expect(paths(keyPatchBody.safeParse({ disable: true }))).toEqual([""]);
    expect(paths(keyPatchBody.safeParse({ name: null }))).toEqual(["name"]);
    // An update may expire a key at once.
    expect(keyPatchBody.parse({ expiresAt: "2020-01-01T00:00:00Z" })).toEqual({
      expiresAt: "2020-01-01T00:00:00Z",
    });
  });

  it("an overlap is 0 by default and at most 7 days", () => {
    expect(rollBody.parse({})).toEqual({ overlapSeconds: 0 });
    expect(rollBody.parse({ overlapSeconds: MAX_OVERLAP_SECONDS })).toEqual({
      overlapSeconds: MAX_OVERLAP_SECONDS,
    });
    expect(paths(rollBody.safeParse({ overlapSeconds: MAX_OVERLAP_SECONDS + 1 }))).toEqual([
      "overlapSeconds",
    ]);
    expect(paths(rollBody.safeParse({ overlapSeconds: -1 }))).toEqual(["overlapSeconds"]);
  });
});

describe("queries", () => {
  it("a page is 1 to 100 keys; days exist", () => {
    expect(keyListQuery.parse({ limit: "5", cursor: "abc" })).toEqual({ limit: 5, cursor: "abc" });
    expect(paths(keyListQuery.safeParse({ limit: "101" }))).toEqual(["limit"]);
    expect(paths(keyListQuery.safeParse({ limit: "x" }))).toEqual(["limit"]);
    expect(paths(keyListQuery.safeParse({ limit: "0x10" }))).toEqual(["limit"]);
    expect(paths(keyListQuery.safeParse({ limit: "1e2" }))).toEqual(["limit"]);
    for (const limit of ["+5", " 5", "5 ", "-1", "", "5.0"]) {
      expect(paths(keyListQuery.safeParse({ limit })), limit).toEqual(["limit"]);
    }
    expect(paths(keyListQuery.safeParse({ cursor: "" }))).toEqual(["cursor"]);
    expect(keyListQuery.parse({})).toEqual({ limit: 20 });
    expect(paths(keyListQuery.safeParse({ cursor: "c".repeat(1001) }))).toEqual(["cursor"]);
    expect(usageQuery.parse({ from: "2024-02-29" })).toEqual({ from: "2024-02-29" });
    expect(paths(usageQuery.safeParse({ from: "2025-02-29", to: "2025-1-01" }))).toEqual([
      "from",
      "to",
    ]);
  });

  it("a usage range defaults to the last 30 days and is at most 366", () => {
    const now = new Date("2026-03-01T23:59:00Z");
    expect(usageRange({}, now)).toEqual({ from: "2026-01-31", to: "2026-03-01" });
    expect(usageRange({ to: "2026-01-10" }, now)).toEqual({ from: "2025-12-12", to: "2026-01-10" });
    expect(usageRange({ from: "2026-01-02", to: "2026-01-01" })).toEqual({
      error: "from (2026-01-02) is after to (2026-01-01)",
    });
    expect(usageRange({ from: "2025-01-01", to: "2025-12-31" })).toEqual({
      from: "2025-01-01",
      to: "2025-12-31",
    });
    expect(usageRange({ from: "2024-01-01", to: "2025-01-01" })).toHaveProperty("error");
  });
});

it("keyObjectOf shows no hash, version or revocation", () => {
  const record = {
    id: "key_1",
    prefix: "ucs_abcdefgh",
    name: "n",
    scopes: ["*"],
    plan: null,
    expiresAt: null,
    disabled: false,
    meta: {},
    createdAt: "2026-01-01T00:00:00.000Z",
    lastUsedAt: null,
    hash: "h",
    previousHash: "p",
    previousValidUntil: null,
    revokedAt: null,
    version: 3,
  };
  expect(Object.keys(keyObjectOf(record))).toEqual([
    "id",
    "prefix",
    "name",
    "scopes",
    "plan",
    "expiresAt",
    "disabled",
    "meta",
    "createdAt",
    "lastUsedAt",
  ]);
});
