/**
 * The admin API and `GET /v1/me` in the OpenAPI document. The admin paths are documented
 * whether or not ADMIN_TOKEN turns them on: the document is the service's reference, and
 * naming paths that answer 404 reveals nothing a client could use.
 */
import {
  DEFAULT_PAGE,
  DEFAULT_USAGE_DAYS,
  keyCreateBody,
  keyPatchBody,
  MAX_CURSOR_LENGTH,
  MAX_PAGE,
  MAX_USAGE_DAYS,
  rollBody,
} from "../access/keys/rules.js";
import { ME_PATH, ME_SCHEMA } from "../access/me.js";
import { type JsonObject, jsonSchema, type OpenApiFragment } from "../core/json-schema.js";
import {
  ADMIN_PREFIX,
  keyObject,
  keyPage,
  keyWithSecret,
  STORE_RETRY_AFTER_SECONDS,
  usageAnswer,
} from "./schemas.js";

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const json = (schema: JsonObject) => ({ "application/json": { schema } });
const admin = [{ bearerAuth: [] }];

const idParameter = {
  name: "id",
  in: "path",
  required: true,
  description: "The key's id (key_…).",
  schema: { type: "string", maxLength: 64 },
};

const common = {
  "401": responseRef("AdminUnauthorized"),
  "503": responseRef("KeyStoreUnavailable"),
};

function body(name: string, required: boolean, description: string): JsonObject {
  return { required, description, content: json(schemaRef(name)) };
}

/** The paths, the tags and the components the admin API and /v1/me add to the document. */
export function adminDocument(): OpenApiFragment {
  const paths: Record<string, JsonObject> = {
    [ME_PATH]: {
      get: {
        operationId: "keys.me",
        tags: ["keys"],
        summary: "The calling key: scopes, plan, what is left, today's usage.",
        description: "Any valid key may ask; the request is charged nothing.",
        responses: {
          "200": { description: "The calling key.", content: json(schemaRef("Me")) },
          "401": responseRef("Unauthorized"),
          "500": responseRef("InternalError"),
        },
      },
    },
    [`${ADMIN_PREFIX}/keys`]: {
      post: {
        operationId: "admin.keys.create",
        tags: ["admin"],
        summary: "Creates a managed key; its secret is in this answer only.",
        security: admin,
        requestBody: body("NewKey", true, "The new key; only `name` is required."),
        responses: {
          "201": {
            description: "The key, with its secret (`key`): store it now, it is not shown again.",
            content: json(schemaRef("KeyWithSecret")),
          },
          ...common,
          "422": responseRef("ValidationError"),
        },
      },
      get: {
        operationId: "admin.keys.list",
        tags: ["admin"],
        summary: "Lists the keys not revoked, oldest first, a page at a time.",
        security: admin,
        parameters: [
          {
            name: "limit",
            in: "query",
            required: false,
            description: "Keys per page.",
            schema: { type: "integer", minimum: 1, maximum: MAX_PAGE, default: DEFAULT_PAGE },
          },
          {
            name: "cursor",
            in: "query",
            required: false,
            description: "The previous page's nextCursor.",
            schema: { type: "string", minLength: 1, maxLength: MAX_CURSOR_LENGTH },
          },
        ],
        responses: {
          "200": { description: "One page of keys.", content: json(schemaRef("KeyPage")) },
          ...common,
          "422": responseRef("ValidationError"),
        },
      },
    },
    [`${ADMIN_PREFIX}/keys/{id}`]: {
      parameters: [idParameter],
      get: {
        operationId: "admin.keys.show",
        tags: ["admin"],
        summary: "Shows a key (never its secret).",
        security: admin,
        responses: {
          "200": { description: "The key.", content: json(schemaRef("Key")) },
          ...common,
          "404": responseRef("KeyNotFound"),
        },
      },
      patch: {
        operationId: "admin.keys.update",
        tags: ["admin"],
        summary: "Changes a key's name, scopes, plan, expiry, disabled flag or meta.",
        description: "Takes effect at once in the process answering, within 5 s in the others.",
        security: admin,
        requestBody: body("KeyPatch", true, "The fields to change; the others stay."),
        responses: {
          "200": { description: "The key as changed.", content: json(schemaRef("Key")) },
          ...common,
          "404": responseRef("KeyNotFound"),
          "422": responseRef("ValidationError"),
        },
      },
      delete: {
        operationId: "admin.keys.revoke",
        tags: ["admin"],
        summary: "Revokes a key: refused from then on; its usage is kept.",
        security: admin,
        responses: {
          "204": { description: "Revoked." },
          ...common,
          "404": responseRef("KeyNotFound"),
        },
      },
    },
    [`${ADMIN_PREFIX}/keys/{id}/roll`]: {
      parameters: [idParameter],
      post: {
        operationId: "admin.keys.roll",
        tags: ["admin"],
        summary: "Gives a key a new secret; the old one works for overlapSeconds more.",
        security: admin,
        requestBody: body("KeyRoll", false, "May be left out: no overlap."),
        responses: {
          "201": {
            description: "The key (same id, scopes, plan, usage) with its new secret.",
            content: json(schemaRef("KeyWithSecret")),
          },
          ...common,
          "404": responseRef("KeyNotFound"),
          "422": responseRef("ValidationError"),
        },
      },
    },
    [`${ADMIN_PREFIX}/keys/{id}/usage`]: {
      parameters: [idParameter],
      get: {
        operationId: "admin.keys.usage",
        tags: ["admin"],
        summary: "A key's calls and units per UTC day and operation.",
        description:
          `From \`from\` to \`to\`, both included, at most ${MAX_USAGE_DAYS} days; by default ` +
          `the last ${DEFAULT_USAGE_DAYS} days up to today (UTC). Includes what this process ` +
          "counted up to the request; other processes' counts may lag up to 10 s.",
        security: admin,
        parameters: [
          {
            name: "from",
            in: "query",
            required: false,
            description: "First day (YYYY-MM-DD, UTC).",
            schema: { type: "string", format: "date" },
          },
          {
            name: "to",
            in: "query",
            required: false,
            description: "Last day (YYYY-MM-DD, UTC); default today.",
            schema: { type: "string", format: "date" },
          },
        ],
        responses: {
          "200": { description: "The usage.", content: json(schemaRef("KeyUsage")) },
          ...common,
          "404": responseRef("KeyNotFound"),
          "422": responseRef("ValidationError"),
        },
      },
    },
  };
  const error = (description: string, headers?: JsonObject) => ({
    description,
    ...(headers ? { headers } : {}),
    content: json(schemaRef("ErrorMessage")),
  });
  return {
    paths,
    tags: [
      { name: "keys", description: "The calling API key itself (`/v1/me`)." },
      {
        name: "admin",
        description:
          "Managed keys (`/admin/v1`), with `Authorization: Bearer <ADMIN_TOKEN>`. On only when " +
          "ADMIN_TOKEN is set; otherwise these paths answer 404.",
      },
    ],
    securitySchemes: {
      bearerAuth: {
        type: "http",
        scheme: "bearer",
        description: "The admin token (ADMIN_TOKEN), for /admin/v1 only.",
      },
    },
    schemas: {
      Me: ME_SCHEMA,
      Key: jsonSchema(keyObject, "output"),
      KeyWithSecret: jsonSchema(keyWithSecret, "output"),
      KeyPage: jsonSchema(keyPage, "output"),
      KeyUsage: jsonSchema(usageAnswer, "output"),
      NewKey: jsonSchema(keyCreateBody, "input"),
      KeyPatch: jsonSchema(keyPatchBody, "input"),
      KeyRoll: jsonSchema(rollBody, "input"),
    },
    responses: {
      AdminUnauthorized: error("No valid admin token (Authorization: Bearer <ADMIN_TOKEN>).", {
        "WWW-Authenticate": { schema: { type: "string" }, description: "The scheme to use." },
      }),
      KeyNotFound: error("No key has this id, or it was revoked."),
      KeyStoreUnavailable: error("The key store cannot be reached; nothing was changed.", {
        "Retry-After": {
          schema: { type: "integer" },
          description: `Seconds to wait (${STORE_RETRY_AFTER_SECONDS}).`,
        },
      }),
    },
  };
}
