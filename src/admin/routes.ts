/**
 * The admin API: managed keys created, listed, changed, revoked, rolled and
 * their usage read, under `/admin/v1`, behind `Authorization: Bearer <ADMIN_TOKEN>`.
 * Registered only when ADMIN_TOKEN is set and the process has a key store; otherwise
 * these paths are unknown (404). Each write refreshes the directory, so the change holds
 * at once in this process (other processes see it at their next poll).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { z } from "zod";
import type { AccessControl } from "../access/control.js";
import { throttledWarning } from "../access/from-config.js";
import type { ManagedKeys } from "../access/keys/managed.js";
import {
  keyCreateBody,
  keyListQuery,
  keyObjectOf,
  keyPatchBody,
  rollBody,
  usageQuery,
  usageRange,
} from "../access/keys/rules.js";
import { InvalidCursorError, type KeyRecord } from "../access/keys/store.js";
import { locate, toProblems } from "../core/problems.js";
import { sendError } from "../http/errors.js";
import type { Surface } from "../surface.js";
import { adminDocument } from "./openapi.js";
import { ADMIN_PREFIX, STORE_RETRY_AFTER_SECONDS } from "./schemas.js";

/** Longer ids are answered 404 without asking the store: no key has one. */
const MAX_ID_LENGTH = 64;

const NOT_FOUND = "No key has this id (or it was revoked)";
const STORE_DOWN = "Key store unavailable";

/** Thrown by a store call: answered 503 by the route. */
class StoreFault extends Error {}

type Params = { id: string };

/**
 * Registers the admin routes. `token` is ADMIN_TOKEN; a wrong or missing one is a 401,
 * counted per address like a wrong key (AUTH_FAILURE_LIMIT).
 */
export function registerAdmin(
  app: FastifyInstance,
  options: { token: string; access: AccessControl; managed: ManagedKeys },
): void {
  const { managed } = options;
  const { store, directory, usage } = managed;
  const onRequest = options.access.bearer(options.token, "admin");
  // Store failures come in bursts while it is down: the first is logged, then one a minute.
  // Only the error goes to the log, never the request's body.
  const storeFailed = throttledWarning((error) =>
    app.log.warn({ err: error }, "admin API: key store unreachable; answering 503"),
  );
  const refreshFailed = throttledWarning((error) =>
    app.log.warn({ err: error }, "admin API: key directory refresh failed; the next poll retries"),
  );

  /** Runs a store call; a failure is logged and rethrown as a fault (503). */
  async function stored<T>(call: () => Promise<T>): Promise<T> {
    try {
      return await call();
    } catch (error) {
      if (error instanceof InvalidCursorError) throw error;
      storeFailed(error instanceof Error ? error : new Error(String(error)));
      throw new StoreFault();
    }
  }

  /** After a write: the change is read back into this process's directory at once. */
  async function refreshed(): Promise<void> {
    // The write is done: a failed read-back does not undo it (the next poll reads it).
    await directory.refresh().catch((error: unknown) => {
      refreshFailed(error instanceof Error ? error : new Error(String(error)));
    });
  }

  /** The route's answer, or 503 when the store failed. */
  function guarded(
    handler: (request: FastifyRequest, reply: FastifyReply) => Promise<unknown>,
  ): (request: FastifyRequest, reply: FastifyReply) => Promise<unknown> {
    return async (request, reply) => {
      try {
        return await handler(request, reply);
      } catch (error) {
        if (error instanceof StoreFault) {
          return sendError(reply, 503, STORE_DOWN, {
            "retry-after": String(STORE_RETRY_AFTER_SECONDS),
          });
        }
        throw error;
      }
    };
  }

  const idOf = (request: FastifyRequest) => (request.params as Params).id;
  const known = (id: string) => id.length <= MAX_ID_LENGTH;

  app.post(
    `${ADMIN_PREFIX}/keys`,
    { onRequest },
    guarded(async (request, reply) => {
      const body = parseBody(keyCreateBody, request.body, reply, false);
      if (!body) return reply;
      const { record, secret } = await stored(() => store.create(body));
      await refreshed();
      return reply.code(201).send({ ...keyObjectOf(record), key: secret });
    }),
  );

  app.get(
    `${ADMIN_PREFIX}/keys`,
    { onRequest },
    guarded(async (request, reply) => {
      const input = { limit: queryValue(request, "limit"), cursor: queryValue(request, "cursor") };
      const query = parse(keyListQuery, input, reply, "query", false);
      if (!query) return reply;
      try {
        const page = await stored(() =>
          store.list({
            limit: query.limit,
            ...(query.cursor === undefined ? {} : { cursor: query.cursor }),
          }),
        );
        return { keys: page.keys.map(keyObjectOf), nextCursor: page.nextCursor };
      } catch (error) {
        if (!(error instanceof InvalidCursorError)) throw error;
        return sendError(reply, 422, [
          {
            loc: ["query", "cursor"],
            msg: "Value error, not a cursor this service made (pass nextCursor back as it is)",
            type: "value_error",
          },
        ]);
      }
    }),
  );

  app.get(
    `${ADMIN_PREFIX}/keys/:id`,
    { onRequest },
    guarded(async (request, reply) => {
      const id = idOf(request);
      const record = known(id) ? await stored(() => store.get(id)) : undefined;
      return record ? keyObjectOf(record) : sendError(reply, 404, NOT_FOUND);
    }),
  );

  app.patch(
    `${ADMIN_PREFIX}/keys/:id`,
    { onRequest },
    guarded(async (request, reply) => {
      const id = idOf(request);
      const patch = parseBody(keyPatchBody, request.body, reply, false);
      if (!patch) return reply;
      let record: KeyRecord | undefined;
      if (known(id)) {
        record = await stored(() => store.update(id, patch));
        if (record) await refreshed();
      }
      return record ? keyObjectOf(record) : sendError(reply, 404, NOT_FOUND);
    }),
  );

  app.delete(
    `${ADMIN_PREFIX}/keys/:id`,
    { onRequest },
    guarded(async (request, reply) => {
      const id = idOf(request);
      const revoked = known(id) && (await stored(() => store.revoke(id)));
      if (!revoked) return sendError(reply, 404, NOT_FOUND);
      await refreshed();
      return reply.code(204).send();
    }),
  );

  app.post(
    `${ADMIN_PREFIX}/keys/:id/roll`,
    { onRequest: [onRequest, emptyBodyIsNone] },
    guarded(async (request, reply) => {
      const id = idOf(request);
      const body = parseBody(rollBody, request.body, reply, true);
      if (!body) return reply;
      const rolled = known(id)
        ? await stored(() => store.roll(id, body.overlapSeconds))
        : undefined;
      if (!rolled) return sendError(reply, 404, NOT_FOUND);
      await refreshed();
      return reply.code(201).send({ ...keyObjectOf(rolled.record), key: rolled.secret });
    }),
  );

  app.get(
    `${ADMIN_PREFIX}/keys/:id/usage`,
    { onRequest },
    guarded(async (request, reply) => {
      const id = idOf(request);
      const query = parse(
        usageQuery,
        { from: queryValue(request, "from"), to: queryValue(request, "to") },
        reply,
        "query",
        false,
      );
      if (!query) return reply;
      const range = usageRange(query);
      if ("error" in range) {
        return sendError(reply, 422, [
          { loc: ["query", "from"], msg: `Value error, ${range.error}`, type: "value_error" },
        ]);
      }
      const { from, to } = range;
      const record = known(id) ? await stored(() => store.get(id)) : undefined;
      if (!record) return sendError(reply, 404, NOT_FOUND);
      // What this process counted so far is written first, so the answer includes it.
      await stored(() => usage.flush());
      const rows = await stored(() => store.usage(id, from, to));
      return {
        id,
        usage: rows.map((row) => ({
          date: row.date,
          operation: row.operation,
          calls: row.calls,
          units: row.units,
        })),
      };
    }),
  );
}

/**
 * A query parameter's value; the last one when repeated, as FastAPI reads a scalar. The
 * service's query parser gives a Map of lists (src/rest/query.ts).
 */
function queryValue(request: FastifyRequest, name: string): string | undefined {
  const query = request.query as ReadonlyMap<string, string[]> | Record<string, unknown>;
  const values = query instanceof Map ? query.get(name) : (query as Record<string, unknown>)[name];
  if (Array.isArray(values)) return values.at(-1) as string | undefined;
  return typeof values === "string" ? values : undefined;
}

/**
 * `onRequest` hook of a route whose body may be left out: an empty body sent with
 * `Content-Type: application/json` (what many clients send for "no body") is read as no
 * body rather than refused by the JSON parser as empty.
 */
function emptyBodyIsNone(request: FastifyRequest, _reply: FastifyReply, done: () => void): void {
  const headers = request.headers;
  const length = headers["content-length"];
  if (headers["transfer-encoding"] === undefined && (length === undefined || length === "0")) {
    delete headers["content-type"];
  }
  done();
}

/**
 * The JSON body checked against `schema`, or undefined once a 422 is sent. A missing body
 * is `{}` when `optional`, else a 422 at `["body"]`, as FastAPI answers.
 */
function parseBody<S extends z.ZodObject>(
  schema: S,
  body: unknown,
  reply: FastifyReply,
  optional: boolean,
): z.output<S> | undefined {
  if (body === undefined && optional) return parse(schema, {}, reply, "body", true);
  if (body === undefined) {
    sendError(reply, 422, [{ loc: ["body"], msg: "Field required", type: "missing" }]);
    return undefined;
  }
  if (body === null || typeof body !== "object" || Array.isArray(body)) {
    sendError(reply, 422, [
      {
        loc: ["body"],
        msg: "Input should be a valid dictionary or object to extract fields from",
        type: "model_attributes_type",
      },
    ]);
    return undefined;
  }
  return parse(schema, body, reply, "body", true);
}

function parse<S extends z.ZodObject>(
  schema: S,
  input: unknown,
  reply: FastifyReply,
  source: "body" | "query",
  json: boolean,
): z.output<S> | undefined {
  const parsed = schema.safeParse(input);
  if (parsed.success) return parsed.data;
  sendError(reply, 422, locate(toProblems(parsed.error.issues, schema, input, { json }), source));
  return undefined;
}

/** The admin API `/admin/v1` (and, in the document, `/v1/me`). */
export const adminSurface: Surface = {
  name: "admin",
  document: adminDocument,
  register(app, { config, access, managed }) {
    // It needs both its token and a store: without either its paths are unknown.
    if (config.adminToken && managed)
      registerAdmin(app, { token: config.adminToken, access, managed });
  },
};
