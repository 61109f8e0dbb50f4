/**
 * The access layer of every protected route, the one access decision every surface asks:
 * the API key (which principal: keys.ts), its scopes (which operations), then its plan's
 * quota. Failed authentication is counted per client address; an address over its limit
 * is refused (429) whatever key it sends next, so guessing keys stops paying. Successful
 * requests are counted per principal in units: one per REST request, one per GraphQL
 * operation field, one per MCP tool call.
 */
import type { FastifyReply, FastifyRequest, onRequestHookHandler } from "fastify";
import { API_KEY_HEADER, createSecretMatcher, WWW_AUTHENTICATE } from "../http/auth.js";
import { sendError } from "../http/errors.js";
import type { AnyOperation } from "../kit/define.js";
import type { Metrics } from "../observability/metrics.js";
import { createKeyChecker, type KeySource } from "./keys.js";
import { operationKey, type Plan, type Principal } from "./principal.js";
import {
  type QuotaCounter,
  type QuotaState,
  quotaExceeded,
  rateLimitHeaders,
} from "./rate-limit.js";

declare module "fastify" {
  interface FastifyRequest {
    /** Who the request acts for, once its key is verified. */
    principal?: Principal;
  }
}

export interface AccessOptions {
  /** Where keys are found: the static keys, then the managed ones. */
  sources: readonly KeySource[];
  /** The counter of a plan (null: the server's), or undefined when that plan counts nothing. */
  quotaOf: (plan: Plan | null) => QuotaCounter | undefined;
  /** Quota of failed authentications per client address; undefined when off. */
  authFailures?: QuotaCounter;
  /** Where each charged use of an operation is counted, per key (the key store's usage). */
  usage?: { record(keyId: string, operation: string, units: number): void };
  metrics: Metrics;
}

/** Addresses kept as blocked in this process, so a blocked client costs no store round trip. */
const MAX_BLOCKED_ADDRESSES = 10_000;

export interface AccessControl {
  /**
   * The `onRequest` hook of an operation's route: 401/429 unless the key is valid, 403
   * unless its scopes include `operation`, 429 unless its plan allows one unit. Made once
   * per route.
   */
  guard(operation: AnyOperation): onRequestHookHandler;
  /** `onRequest` hook that checks the key only; the route checks scopes and charges itself. */
  authenticateOnly: onRequestHookHandler;
  /** Whether the request's principal (verified by a hook before) may use `operation`. */
  allows(request: FastifyRequest, operation: AnyOperation): boolean;
  /** What is left of the principal's quota, counting nothing; undefined without a quota. */
  remaining(request: FastifyRequest): Promise<QuotaState | undefined>;
  /**
   * Counts a use of `operation` charged `units` in the principal's usage (the guard counts
   * its own; GraphQL and MCP count each field and tool call they charged).
   */
  used(request: FastifyRequest, operation: AnyOperation, units: number): void;
  /**
   * Charges `units` to the request's key; a refused charge takes none of them. With 0
   * units nothing is counted, but the state says refused when the key has no unit left,
   * so a key over its quota gets nothing, free or not. Returns the quota state (headers
   * already set on the reply), or undefined when limits are off.
   */
  charge(
    request: FastifyRequest,
    reply: FastifyReply,
    units: number,
  ): Promise<QuotaState | undefined>;
  /**
   * {@link charge}, answered at once (no promise) when the key's counter is in this
   * process and `units` > 0; else `charge`'s promise. A state answered at once is the
   * counter's own object, overwritten by its next charge: read it before yielding.
   */
  chargeNow(
    request: FastifyRequest,
    reply: FastifyReply,
    units: number,
  ): QuotaState | undefined | Promise<QuotaState | undefined>;
  /**
   * `onRequest` hook for a service secret other than a key (the metrics token): passes
   * with `Authorization: Bearer <token>`, else 401; failures are counted and limited per
   * address as failed keys are.
   */
  bearer(token: string, realm: string): onRequestHookHandler;
}

function tooManyRequests(reply: FastifyReply, state: QuotaState, what: string): FastifyReply {
  return sendError(reply, 429, quotaExceeded(state, what), {
    ...rateLimitHeaders(state),
    "retry-after": String(state.resetSeconds),
  });
}

/** The 403 of a key whose scopes do not include the operation asked for. */
export function outOfScope(operation: AnyOperation): string {
  return `This API key's scopes do not include ${operationKey(operation)}`;
}

/**
 * Builds the access layer.
 *
 * @example
 * const access = createAccessControl({ sources: [staticKeys(["k"])], quotaOf: () => undefined, metrics });
 * app.get("/v1/math/sum", { onRequest: access.guard(sum) }, handler);
 */
export function createAccessControl(options: AccessOptions): AccessControl {
  const check = createKeyChecker(options.sources);
  const { quotaOf, authFailures, metrics, usage } = options;
  /** `area/name` of each operation, made once. */
  const keys = new WeakMap<AnyOperation, string>();
  function used(request: FastifyRequest, operation: AnyOperation, units: number): void {
    const principal = request.principal;
    if (usage === undefined || principal === undefined) return;
    let key = keys.get(operation);
    if (key === undefined) {
      key = operationKey(operation);
      keys.set(operation, key);
    }
    usage.record(principal.id, key, units);
  }
  const blockedUntil = new Map<string, { until: number; state: QuotaState }>();

  function blockedState(address: string): QuotaState | undefined {
    const blocked = blockedUntil.get(address);
    if (!blocked) return undefined;
    const remainingMs = blocked.until - Date.now();
    if (remainingMs <= 0) {
      blockedUntil.delete(address);
      return undefined;
    }
    return { ...blocked.state, remaining: 0, resetSeconds: Math.ceil(remainingMs / 1000) };
  }

  function block(address: string, state: QuotaState): void {
    if (blockedUntil.size >= MAX_BLOCKED_ADDRESSES) {
      const oldest = blockedUntil.keys().next().value;
      if (oldest !== undefined) blockedUntil.delete(oldest);
    }
    blockedUntil.set(address, { until: Date.now() + state.resetSeconds * 1000, state });
  }

  /** The 429 for an address blocked after too many failed authentications, or undefined. */
  function refusedAddress(request: FastifyRequest, reply: FastifyReply): FastifyReply | undefined {
    const blocked = authFailures ? blockedState(request.ip) : undefined;
    if (!blocked) return undefined;
    metrics.rateLimitRejections.inc({ policy: blocked.policy.name });
    return tooManyRequests(reply, blocked, "failed authentication from this address");
  }

  /**
   * Answers a failed authentication: 401 with `challenge`, or, once the address has failed
   * too often (counted in the store first), 429.
   */
  function refuseFailure(
    request: FastifyRequest,
    reply: FastifyReply,
    reason: string,
    challenge: string,
  ): FastifyReply | Promise<FastifyReply> {
    const headers: Record<string, string> = { "www-authenticate": challenge };
    if (!authFailures) return sendError(reply, 401, reason, headers);
    return authFailures.consume(request.ip).then((state) => {
      if (!state.allowed) {
        block(request.ip, state);
        metrics.rateLimitRejections.inc({ policy: state.policy.name });
        return tooManyRequests(reply, state, "failed authentication from this address");
      }
      Object.assign(headers, rateLimitHeaders(state));
      return sendError(reply, 401, reason, headers);
    });
  }

  /**
   * Undefined when the key is good; else the refusal, sent at once or, when the failure
   * must be counted in the store first, once counted.
   */
  function verifyKey(
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply | Promise<FastifyReply> | undefined {
    const blocked = refusedAddress(request, reply);
    if (blocked) return blocked;
    const result = check(request.headers[API_KEY_HEADER]);
    if (result.ok) {
      request.principal = result.principal;
      request.apiKeyId = result.principal.id;
      return undefined;
    }
    return refuseFailure(request, reply, result.reason, WWW_AUTHENTICATE);
  }

  /** Sets the quota's headers on `reply` (and Retry-After, counted, when refused). */
  function answerState(reply: FastifyReply, counter: QuotaCounter, state: QuotaState): void {
    reply.header("ratelimit-policy", counter.policyHeader);
    reply.header("ratelimit", counter.field(state));
    if (!state.allowed) {
      metrics.rateLimitRejections.inc({ policy: state.policy.name });
      reply.header("retry-after", String(state.resetSeconds));
    }
  }

  async function charge(request: FastifyRequest, reply: FastifyReply, units: number) {
    const principal = request.principal;
    const counter = principal && quotaOf(principal.plan);
    if (!principal || !counter) return undefined;
    const state =
      units > 0 ? await counter.consume(principal.id, units) : await counter.peek(principal.id);
    answerState(reply, counter, state);
    return state;
  }

  function chargeNow(request: FastifyRequest, reply: FastifyReply, units: number) {
    const principal = request.principal;
    const counter = principal && quotaOf(principal.plan);
    if (!principal || !counter) return undefined;
    if (units === 0 || counter.consumeNow === undefined) return charge(request, reply, units);
    const state = counter.consumeNow(principal.id, units);
    answerState(reply, counter, state);
    return state;
  }

  /**
   * The hook, written with `done` so that a good key with no quota to ask for (the usual
   * case) goes on in the same tick, without a promise. A refused request is answered
   * here and `done` is not called: fastify goes on to send that answer.
   */
  function hook(operation: AnyOperation | undefined): onRequestHookHandler {
    if (operation !== undefined) keys.set(operation, operationKey(operation));
    return (request, reply, done) => {
      const refused = verifyKey(request, reply);
      if (refused !== undefined) {
        if (refused instanceof Promise) refused.catch(done);
        return;
      }
      if (operation === undefined) return done();
      const principal = request.principal as Principal;
      if (!principal.allows(operation)) {
        sendError(reply, 403, outOfScope(operation));
        return;
      }
      const counter = quotaOf(principal.plan);
      if (counter === undefined) {
        used(request, operation, 1);
        return done();
      }
      // Counters in this process answer at once: no promise, the hook goes on in this tick.
      if (counter.consumeNow !== undefined) {
        const state = counter.consumeNow(principal.id, 1);
        answerState(reply, counter, state);
        if (!state.allowed) {
          tooManyRequests(reply, state, "this API key");
          return;
        }
        used(request, operation, 1);
        return done();
      }
      charge(request, reply, 1).then((state) => {
        if (state && !state.allowed) {
          tooManyRequests(reply, state, "this API key");
          return;
        }
        used(request, operation, 1);
        done();
      }, done);
    };
  }

  return {
    guard: hook,
    authenticateOnly: hook(undefined),
    allows: (request, operation) => request.principal?.allows(operation) === true,
    used,
    async remaining(request) {
      const principal = request.principal;
      const counter = principal && quotaOf(principal.plan);
      return principal && counter ? counter.peek(principal.id) : undefined;
    },
    charge,
    chargeNow,
    bearer(token, realm) {
      const matches = createSecretMatcher(token);
      const reason = `Send the ${realm} token as a Bearer token`;
      const challenge = `Bearer realm="${realm}"`;
      return (request, reply, done) => {
        if (refusedAddress(request, reply)) return;
        const presented = bearerOf(request.headers.authorization);
        if (presented !== undefined && matches(presented)) return done();
        const refused = refuseFailure(request, reply, reason, challenge);
        if (refused instanceof Promise) refused.catch(done);
      };
    },
  };
}

/** The token of an `Authorization: Bearer <token>` header (the scheme in any case), or undefined. */
export function bearerOf(header: string | undefined): string | undefined {
  if (header === undefined) return undefined;
  const match = /^bearer +([^ ]+) *$/i.exec(header);
  return match ? match[1] : undefined;
}
