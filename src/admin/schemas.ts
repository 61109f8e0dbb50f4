/**
 * What the admin API (API.md §7) takes and answers, as zod schemas: the request bodies are
 * checked against them (422 in the FastAPI shape) and the OpenAPI document states them.
 */
import { z } from "zod";
import type { KeyRecord } from "../access/keys/store.js";

/** A scope: `*`, an area (`math`) or one operation (`hash/hmac-md5`). */
export const SCOPE_PATTERN = /^(\*|[a-z0-9-]+|[a-z0-9-]+\/[a-z0-9/-]+)$/;
/** Bounds of what a key carries: they keep each record, and each directory entry, small. */
export const MAX_NAME_LENGTH = 100;
export const MAX_SCOPES = 100;
export const MAX_SCOPE_LENGTH = 200;
export const MAX_META_BYTES = 1024;
/** The largest plan limit: the stores keep it in a 32-bit integer column. */
export const MAX_PLAN_LIMIT = 2 ** 31 - 1;
export const MAX_WINDOW_SECONDS = 86_400;
/** Seven days: the longest an old secret may keep working after a roll. */
export const MAX_OVERLAP_SECONDS = 604_800;
/** Keys per page of `GET /admin/v1/keys`: at most, and when `limit` is not given. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;
/** Days of usage `GET …/usage` answers by default and at most (both ends included). */
export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;

const name = z.string().min(1).max(MAX_NAME_LENGTH).describe("What the key is for; not unique.");

const scopes = z
  .array(
    z
      .string()
      .max(MAX_SCOPE_LENGTH)
      .regex(SCOPE_PATTERN)
      .describe('"*", an area ("math") or one operation ("hash/hmac-md5").'),
  )
  .min(1)
  .max(MAX_SCOPES)
  .describe(
    "What the key may call. An operation not loaded (yet) is accepted: a key may be " +
      "scoped before its operation's module is deployed.",
  );

const plan = z
  .object({
    limit: z.int().min(1).max(MAX_PLAN_LIMIT).describe("Units per window."),
    windowSeconds: z.int().min(1).max(MAX_WINDOW_SECONDS).describe("The window, in seconds."),
  })
  .strict();

const expiresAt = z.iso
  .datetime({ offset: true })
  .describe("RFC 3339, e.g. 2027-01-01T00:00:00Z; the key is refused from then on.");

const meta = z
  .record(z.string(), z.unknown())
  .superRefine((value, ctx) => {
    const bytes = Buffer.byteLength(JSON.stringify(value));
    if (bytes > MAX_META_BYTES) {
      ctx.addIssue({
        code: "custom",
        message: `Value error, meta is ${bytes} bytes of JSON; at most ${MAX_META_BYTES} are allowed`,
        params: { type: "value_error", ctx: { max_bytes: MAX_META_BYTES } },
      });
    }
  })
  .describe(
    `Free-form JSON object for the operator (owner, ticket…), at most ${MAX_META_BYTES} bytes.`,
  );

/** `POST /admin/v1/keys`. */
export const createBody = z
  .object({
    name,
    scopes: scopes.default(["*"]),
    plan: plan
      .nullable()
      .default(null)
      .describe("The key's quota; null or absent: the server's (RATE_LIMIT)."),
    expiresAt: expiresAt
      .nullable()
      .default(null)
      .describe("When the key stops working (RFC 3339, in the future); null or absent: never."),
    meta: meta.default({}),
  })
  .strict()
  .superRefine((body, ctx) => {
    // A new key that is already expired is a typo, never what was meant.
    if (body.expiresAt !== null && Date.parse(body.expiresAt) <= Date.now()) {
      ctx.addIssue({
        code: "custom",
        path: ["expiresAt"],
        message: "Input should be in the future",
        params: { type: "datetime_future" },
      });
    }
  });

/** `PATCH /admin/v1/keys/{id}`: the fields given change; the others stay. */
export const patchBody = z
  .object({
    name: name.optional(),
    scopes: scopes.optional(),
    plan: plan.nullable().optional().describe("null: the server's plan (RATE_LIMIT)."),
    expiresAt: expiresAt
      .nullable()
      .optional()
      .describe("null: never. A time already past expires the key at once."),
    disabled: z.boolean().optional().describe("A disabled key is refused until enabled again."),
    meta: meta.optional(),
  })
  .strict();

/** `POST /admin/v1/keys/{id}/roll`; the body may be left out. */
export const rollBody = z
  .object({
    overlapSeconds: z
      .int()
      .min(0)
      .max(MAX_OVERLAP_SECONDS)
      .default(0)
      .describe("How long the old secret keeps working; 0: it stops at once."),
  })
  .strict();

/** `GET /admin/v1/keys`, its query (values are text; `limit` is read as an integer first). */
export const listQuery = z.object({
  limit: z.int().min(1).max(MAX_PAGE).default(DEFAULT_PAGE),
  cursor: z.string().max(1000).optional(),
});

const day = z.string().refine((text) => isDay(text), {
  message: "Input should be a valid date in the format YYYY-MM-DD",
  params: { type: "date_parsing" },
});

/** `GET /admin/v1/keys/{id}/usage`, its query. */
export const usageQuery = z.object({ from: day.optional(), to: day.optional() });

/** Whether `text` is a calendar day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/** The key object (API.md §7): never the hashes, nor the revocation and version fields. */
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

export type KeyObject = z.output<typeof keyObject>;

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

/** What the admin API shows of a record. */
export function keyObjectOf(record: KeyRecord): KeyObject {
  return {
    id: record.id,
    prefix: record.prefix,
    name: record.name,
    scopes: record.scopes,
    plan: record.plan,
    expiresAt: record.expiresAt,
    disabled: record.disabled,
    meta: record.meta,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
  };
}
