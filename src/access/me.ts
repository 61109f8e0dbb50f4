/**
 * `GET /v1/me`: what a key's holder may know of their key: who it is, its
 * scopes, its plan, what is left of it, and today's usage. Any valid key, charged nothing.
 */
import type { FastifyInstance } from "fastify";
import type { Surface } from "../surface.js";
import type { AccessControl } from "./control.js";
import type { UsageRecorder } from "./keys/usage.js";
import type { Plan, Principal } from "./principal.js";
import { rateLimitHeaders } from "./rate-limit.js";

export const ME_PATH = "/v1/me";

/** The answer's shape, for the OpenAPI document. */
export const ME_SCHEMA = {
  type: "object",
  required: [
    "id",
    "prefix",
    "name",
    "scopes",
    "plan",
    "remaining",
    "resetSeconds",
    "expiresAt",
    "today",
  ],
  properties: {
    id: { type: "string", description: "The key's id; for a static key, derived from its hash." },
    prefix: {
      type: ["string", "null"],
      description: "The secret's display prefix; null for a static key.",
    },
    name: { type: ["string", "null"], description: "Null for a static key." },
    scopes: { type: "array", items: { type: "string" } },
    plan: {
      anyOf: [
        {
          type: "object",
          required: ["limit", "windowSeconds"],
          properties: { limit: { type: "integer" }, windowSeconds: { type: "integer" } },
        },
        { type: "null" },
      ],
      description: "The quota that applies: the key's own, else the server's; null when none.",
    },
    remaining: {
      type: ["integer", "null"],
      description: "Units left in this window; null without a quota.",
    },
    resetSeconds: { type: ["integer", "null"], description: "Seconds until the window resets." },
    expiresAt: { type: ["string", "null"], format: "date-time" },
    today: {
      type: "object",
      required: ["calls", "units"],
      properties: { calls: { type: "integer" }, units: { type: "integer" } },
      description: "Today's (UTC) calls and units, every surface; may lag a few seconds.",
    },
  },
} as const;

/** Registers `GET /v1/me`. `serverPlan` is RATE_LIMIT's, or null when off. */
export function registerMe(
  app: FastifyInstance,
  access: AccessControl,
  serverPlan: Plan | null,
  usage: UsageRecorder | undefined,
): void {
  app.get(ME_PATH, { onRequest: access.authenticateOnly }, async (request, reply) => {
    const principal = request.principal as Principal;
    const state = await access.remaining(request);
    if (state) reply.headers(rateLimitHeaders(state));
    const today = usage ? await usage.today(principal.id) : { calls: 0, units: 0 };
    return {
      id: principal.id,
      prefix: principal.prefix,
      name: principal.name,
      scopes: principal.scopes,
      plan: principal.plan ?? serverPlan,
      remaining: state ? state.remaining : null,
      resetSeconds: state ? state.resetSeconds : null,
      expiresAt: principal.expiresAt,
      today,
    };
  });
}

/** `GET /v1/me`: the calling key. */
export const meSurface: Surface = {
  name: "me",
  register(app, { config, access, managed }) {
    const plan =
      config.rateLimit > 0
        ? { limit: config.rateLimit, windowSeconds: config.rateLimitWindowSeconds }
        : null;
    registerMe(app, access, plan, managed?.usage);
  },
};
