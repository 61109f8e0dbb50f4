/**
 * The rules of a managed key's fields, one set for every surface that writes
 * keys: the admin API checks its bodies and queries with these schemas (and its OpenAPI
 * document states them, `.describe()` texts included) and `ucs keys` its arguments, so both
 * refuse the same input with the same problems. Zod only: no import from a surface.
 */
import { z } from "zod";

/**
 * A scope: `*` (everything), an area (`math`) or one operation (`hash/hmac-md5`, or a
 * nested name such as `crypto/checksum/md5`), spelled as the registry spells them.
 */
export const SCOPE_PATTERN = /^(\*|[a-z][a-z0-9-]*(\/[a-z][a-z0-9-]*)*)$/;
/** Bounds of what a key carries: they keep each record, and each directory entry, small. */
export const MAX_NAME_LENGTH = 100;
export const MAX_SCOPES = 100;
export const MAX_SCOPE_LENGTH = 200;
/** `meta`: a JSON object of at most this many bytes (UTF-8) as JSON text. */
export const MAX_META_BYTES = 1024;
/** The largest plan limit: the stores keep it in a 32-bit integer column. */
export const MAX_PLAN_LIMIT = 2 ** 31 - 1;
export const MAX_WINDOW_SECONDS = 86_400;
/** Seven days: the longest an old secret may keep working after a roll. */
export const MAX_OVERLAP_SECONDS = 604_800;
/** Keys per page of `GET /admin/v1/keys`: at most, and when `limit` is not given. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;
/** A cursor is short; a longer one was not made by the service. */
export const MAX_CURSOR_LENGTH = 1000;
/** Days of usage `GET …/usage` answers by default and at most (both ends included). */
export const DEFAULT_USAGE_DAYS = 30;
export const MAX_USAGE_DAYS = 366;

const name = z.string().min(1).max(MAX_NAME_LENGTH).describe("What the key is for; not unique.");

const scopes = z
  .array(
    z
      .string()
      .max(MAX_SCOPE_LENGTH)
      // The admin API answers the pattern itself; the message is what `ucs keys` prints.
      .regex(SCOPE_PATTERN, "a scope is '*', an area ('math') or one operation ('hash/hmac-md5')")
      .describe('"*", an area ("math") or one operation ("hash/hmac-md5").'),
  )
  // A key that may use nothing is a mistake: disable it instead.
  .min(1)
  .max(MAX_SCOPES)
  .describe(
    "What the key may call. An operation not loaded (yet) is accepted: a key may be " +
      "scoped before its operation's module is deployed.",
  );

export const plan = z
  .object({
    limit: z.int().min(1).max(MAX_PLAN_LIMIT).describe("Units per window."),
    windowSeconds: z.int().min(1).max(MAX_WINDOW_SECONDS).describe("The window, in seconds."),
  })
  .strict();

/** RFC 3339 with its offset (`Z` or `+02:00`): a time without one means no instant. */
const expiresAt = z.iso
  .datetime({
    offset: true,
    message: "expected an RFC 3339 time with its offset, such as 2027-01-31T00:00:00Z",
  })
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

/**
 * `POST /admin/v1/keys`. Unknown fields are refused: a typo must not pass silently. A new
 * key already expired is a typo too (an update may expire a key at once, on purpose).
 */
export const keyCreateBody = z
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
export const keyPatchBody = z
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

/** `POST /admin/v1/keys/{id}/roll`; an absent body is `{}`. */
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

/**
 * `GET /admin/v1/keys?limit=&cursor=`, from the query string's text: the limit is digits
 * (not `0x10`, `1e2`, `+5` or ` 5`, which a plain number conversion would take; at most 15,
 * which a number holds exactly), then bounded; DEFAULT_PAGE if absent.
 */
export const keyListQuery = z.strictObject({
  limit: z
    .string()
    .refine((text) => /^[0-9]{1,15}$/.test(text), {
      message: "Input should be a valid integer, unable to parse string as an integer",
      params: { type: "int_parsing" },
      abort: true,
    })
    .transform(Number)
    .pipe(z.int().min(1).max(MAX_PAGE))
    .default(DEFAULT_PAGE),
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
});

/** A calendar day that exists, written YYYY-MM-DD (`2027-02-30` does not exist). */
const day = z.string().refine((text) => isDay(text), {
  message: "Input should be a valid date in the format YYYY-MM-DD",
  params: { type: "date_parsing" },
});

/** `GET /admin/v1/keys/{id}/usage?from=&to=` (UTC days, both included). */
export const usageQuery = z.strictObject({ from: day.optional(), to: day.optional() });

/** Whether `text` is a calendar day written YYYY-MM-DD. */
export function isDay(text: string): boolean {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(text)) return false;
  const date = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(date.getTime()) && date.toISOString().slice(0, 10) === text;
}

/**
 * The days a usage query covers: `to` defaults to today (UTC), `from` to
 * DEFAULT_USAGE_DAYS days up to `to`. A range backwards or longer than MAX_USAGE_DAYS
 * is an error, said in words (the admin API's 422 at `from`, the CLI's exit 2).
 */
export function usageRange(
  query: { from?: string | undefined; to?: string | undefined },
  now: Date = new Date(),
): { from: string; to: string } | { error: string } {
  const to = query.to ?? now.toISOString().slice(0, 10);
  const from = query.from ?? shiftDay(to, -(DEFAULT_USAGE_DAYS - 1));
  if (from > to) return { error: `from (${from}) is after to (${to})` };
  if (shiftDay(from, MAX_USAGE_DAYS - 1) < to) {
    return { error: `from and to may be at most ${MAX_USAGE_DAYS} days apart, both included` };
  }
  return { from, to };
}

function shiftDay(day: string, days: number): string {
  const date = new Date(`${day}T00:00:00Z`);
  date.setUTCDate(date.getUTCDate() + days);
  return date.toISOString().slice(0, 10);
}

/** What `keyObjectOf` reads of a stored record (the store's KeyRecord has more). */
export interface KeyFields {
  id: string;
  prefix: string;
  name: string;
  scopes: string[];
  plan: { limit: number; windowSeconds: number } | null;
  expiresAt: string | null;
  disabled: boolean;
  meta: Record<string, unknown>;
  createdAt: string;
  lastUsedAt: string | null;
}

/** The key object, in the order docs/keys.md states it: never the hashes, the version or revokedAt. */
export function keyObjectOf(record: KeyFields): KeyFields {
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
