/**
 * What the admin API answers, as zod schemas for the OpenAPI document. What it
 * takes (bodies, queries, their bounds) is the keys' own rules, shared with `ucs keys`:
 * src/access/keys/rules.ts.
 */
import { z } from "zod";
import { plan } from "../access/keys/rules.js";

/** Where the admin API is served. */
export const ADMIN_PREFIX = "/admin/v1";
/** What a client is told to wait (Retry-After) when the key store cannot be reached. */
export const STORE_RETRY_AFTER_SECONDS = 5;

/** The key object: never the hashes, nor the revocation and version fields. */
export const keyObject = z.object({
  id: z.string().describe("Stable and not secret: key_ and 16 base62 characters."),
  prefix: z.string().describe("The secret's first characters, to recognise it; not secret."),
  name: z.string(),
  scopes: z.array(z.string()),
  plan: plan.nullable().describe("The key's own quota; null: the server's."),
  expiresAt: z.string().nullable().describe("RFC 3339 (UTC), or null: never."),
  disabled: z.boolean(),
  meta: z.record(z.string(), z.unknown()),
  createdAt: z.string().describe("RFC 3339 (UTC)."),
  lastUsedAt: z.string().nullable().describe("RFC 3339 (UTC); may lag a few seconds."),
});

/** The key object with its secret: the answer of a create or a roll, the one time it is shown. */
export const keyWithSecret = keyObject.extend({
  key: z.string().describe("The secret (ucs_ and 40 base62): shown this once, never again."),
});

export const keyPage = z.object({
  keys: z.array(keyObject),
  nextCursor: z.string().nullable().describe("Pass as ?cursor= for the next page; null: the last."),
});

export const usageAnswer = z.object({
  id: z.string(),
  usage: z.array(
    z.object({
      date: z.string().describe("YYYY-MM-DD, UTC."),
      operation: z.string().describe("area/name"),
      calls: z.int(),
      units: z.int(),
    }),
  ),
});
