/**
 * The rules of a managed key's fields (API.md §7), one set for every writer: the admin API
 * validates its bodies with these schemas and `ucs keys` its arguments, so both refuse the
 * same input with the same problems. Zod only: no import from the service.
 */
import { z } from "zod";

/** A key's name: 1 to MAX_NAME characters. */
export const MAX_NAME = 100;
/** `meta`: a JSON object of at most this many bytes (UTF-8) as JSON text. */
export const MAX_META_BYTES = 1024;
/** A roll's overlap: 0 (the old secret stops at once) to 7 days. */
export const MAX_OVERLAP_SECONDS = 604_800;
/** A plan's window: 1 s to one day. */
export const MAX_WINDOW_SECONDS = 86_400;
/** A plan's limit: PostgreSQL's `integer` column holds no more. */
export const MAX_PLAN_LIMIT = 2_147_483_647;
/** Scopes per key, and characters per scope: far above any real use, bounded all the same. */
export const MAX_SCOPES = 100;
export const MAX_SCOPE_LENGTH = 200;
/** `GET /admin/v1/keys?limit=`: at most this many keys a page, and this many by default. */
export const MAX_PAGE = 100;
export const DEFAULT_PAGE = 20;
/** A cursor is short; a longer one was not made by the service. */
export const MAX_CURSOR_LENGTH = 1000;
/** A usage query without `from`: this many UTC days up to `to` (both included). */
export const DEFAULT_USAGE_DAYS = 30;
/** A usage query covers at most this many days: one answer stays small. */
export const MAX_USAGE_DAYS = 366;

/**
 * A scope: `*` (everything), an area (`math`) or one operation (`hash/hmac-md5`, or a
 * nested name such as `crypto/checksum/md5`), spelled as the registry spells them.
 */
export const SCOPE = /^(?:\*|[a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)*)$/;
/** A UTC day as the usage query takes it. */
export const DAY = /^\d{4}-\d{2}-\d{2}$/;

export const nameSchema = z.string().min(1).max(MAX_NAME);

export const scopesSchema = z
  .array(
    z
      .string()
      .max(MAX_SCOPE_LENGTH)
      .regex(SCOPE, "a scope is '*', an area ('math') or one operation ('hash/hmac-md5')"),
  )
  // A key that may use nothing is a mistake: disable it instead.
  .min(1)
  .max(MAX_SCOPES);

export const planSchema = z.strictObject({
  limit: z.int().min(1).max(MAX_PLAN_LIMIT),
  windowSeconds: z.int().min(1).max(MAX_WINDOW_SECONDS),
});

/** RFC 3339 with its offset (`Z` or `+02:00`): a time without one means no instant. */
export const expiresAtSchema = z.iso.datetime({
  offset: true,
  message: "expected an RFC 3339 time with its offset, such as 2027-01-31T00:00:00Z",
});

/** Bytes of `value` as JSON text (UTF-8). */
export function jsonBytes(value: unknown): number {
  return new TextEncoder().encode(JSON.stringify(value)).length;
}

export const metaSchema = z
  .record(z.string(), z.unknown())
  .refine((meta) => jsonBytes(meta) <= MAX_META_BYTES, {
    message: `meta must be at most ${MAX_META_BYTES} bytes as JSON`,
  });

/**
 * `POST /admin/v1/keys`. Unknown fields are refused: a typo must not pass silently. A new
 * key already expired is a typo too (an update may expire a key at once, on purpose).
 */
export const keyCreateBody = z
  .strictObject({
    name: nameSchema,
    scopes: scopesSchema.optional(),
    plan: planSchema.nullable().optional(),
    expiresAt: expiresAtSchema.nullable().optional(),
    meta: metaSchema.optional(),
  })
  .superRefine((body, ctx) => {
    if (typeof body.expiresAt === "string" && Date.parse(body.expiresAt) <= Date.now()) {
      ctx.addIssue({
        code: "custom",
        path: ["expiresAt"],
        message: "Input should be in the future",
        params: { type: "datetime_future" },
      });
    }
  });
export type KeyCreateBody = z.infer<typeof keyCreateBody>;

/** `PATCH /admin/v1/keys/{id}`: `plan: null` is the server's default, `expiresAt: null` never. */
export const keyPatchBody = z.strictObject({
  name: nameSchema.optional(),
  scopes: scopesSchema.optional(),
  plan: planSchema.nullable().optional(),
  expiresAt: expiresAtSchema.nullable().optional(),
  disabled: z.boolean().optional(),
  meta: metaSchema.optional(),
});
export type KeyPatchBody = z.infer<typeof keyPatchBody>;

/** `POST /admin/v1/keys/{id}/roll`; an absent body is `{}`. */
export const rollBody = z.strictObject({
  overlapSeconds: z.int().min(0).max(MAX_OVERLAP_SECONDS).default(0),
});
export type RollBody = z.infer<typeof rollBody>;

/**
 * `GET /admin/v1/keys?limit=&cursor=`, from the query string's text: the limit is digits
 * (not `0x10` or `1e2`, which a plain number conversion would take), DEFAULT_PAGE if absent.
 */
export const keyListQuery = z.strictObject({
  limit: z
    .string()
    .regex(/^[0-9]{1,6}$/, "expected a whole number")
    .transform(Number)
    .pipe(z.int().min(1).max(MAX_PAGE))
    .default(DEFAULT_PAGE),
  cursor: z.string().min(1).max(MAX_CURSOR_LENGTH).optional(),
});

/** A calendar day that exists (`2027-02-30` does not). */
const daySchema = z
  .string()
  .regex(DAY, { message: "expected a UTC day as YYYY-MM-DD", abort: true })
  .refine((day) => {
    const date = new Date(`${day}T00:00:00Z`);
    return !Number.isNaN(date.getTime()) && date.toISOString().startsWith(day);
  }, "expected a UTC day that exists");

/** `GET /admin/v1/keys/{id}/usage?from=&to=` (UTC days, both included). */
export const usageQuery = z.strictObject({
  from: daySchema.optional(),
  to: daySchema.optional(),
});

/**
 * The days a usage query covers: `to` defaults to today (UTC), `from` to
 * DEFAULT_USAGE_DAYS days up to `to`. A range backwards or longer than MAX_USAGE_DAYS
 * is an error, said in words (the admin API's 422, the CLI's exit 2).
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

/** What `keyObject` reads of a stored record (the store's KeyRecord has more). */
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

/** The key object of API.md §7, in its order: never the hashes, the version or revokedAt. */
export function keyObject(record: KeyFields): KeyFields {
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
