/**
 * Charges a GraphQL request to its key's quota by the operation fields it runs, after
 * validation and before execution, so batching many calculations into one request
 * costs what sending them one by one would.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import { type DocumentNode, GraphQLError, type OperationDefinitionNode } from "graphql";
import { type QuotaState, quotaExceeded } from "../access/rate-limit.js";
import { measureDocument } from "./measure.js";

/**
 * Charges `units` to the request's key (`AccessControl.chargeNow`): the state at once when
 * the counter is in this process, else a promise of it. A state answered at once is the
 * counter's own object, overwritten by its next charge: read it before yielding.
 */
export type Charge = (
  request: FastifyRequest,
  reply: FastifyReply,
  units: number,
) => QuotaState | undefined | Promise<QuotaState | undefined>;

/**
 * What a request running `operation` of `document` costs in quota units: the operation's
 * fields, and at least 1, so an introspection query is not free. Measured once per
 * prepared document (the pipeline keeps it).
 *
 * @example
 * const document = parse("{ a: math { sum(numbers: [1]) { decimal } } b: math { sum(numbers: [2]) { decimal } } }");
 * quotaUnits(document, getOperationAST(document) ?? undefined); // 2
 */
export function quotaUnits(document: DocumentNode, operation?: OperationDefinitionNode): number {
  return Math.max(1, measureDocument(document, operation).operationFields);
}

/**
 * The error a request over its key's quota gets: HTTP 429 with `Retry-After`.
 *
 * @example
 * const result = { errors: [quotaRefusal(state, 3)] };
 */
export function quotaRefusal(state: QuotaState, units: number): GraphQLError {
  return new GraphQLError(quotaExceeded(state, "this API key", units), {
    extensions: {
      code: "RATE_LIMITED",
      http: { status: 429, headers: { "retry-after": String(state.resetSeconds) } },
    },
  });
}
