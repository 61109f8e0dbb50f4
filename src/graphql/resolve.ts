/**
 * Runs one operation for a resolver, through the one runner, and maps its failures to
 * GraphQL errors: invalid input and not found pass through unmasked with their codes;
 * any other fault is logged here, with its request, and rethrown for the pipeline to mask.
 */
import { GraphQLError } from "graphql";
import { outOfScope } from "../access/control.js";
import { MAX_LIST_ITEMS_PER_REQUEST } from "../core/budget.js";
import { locate, summarizeProblems } from "../core/problems.js";
import { InvalidInputError, NotFoundError, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import { takeListItems, takeProblems } from "./limits.js";

/** What resolvers need of their context: the fastify request, for its logger and its key. */
export interface ResolverContext {
  /** List items the request's fields may still send (takeListItems); unset before the first. */
  listItemsLeft?: number;
  req?: {
    id?: string;
    log?: { error(object: object, message: string): void };
    /** Whose key the request carries: its scopes decide which fields run. */
    principal?: { allows(operation: AnyOperation): boolean };
  };
}

/** Told of each field's operation as it runs, with its request (the key's usage). */
export type UsageHook = (
  request: NonNullable<ResolverContext["req"]>,
  operation: AnyOperation,
) => void;

/** Faults already logged with their request, so the masking log (yoga's logger) skips them. */
const loggedFaults = new WeakSet<object>();

/**
 * Whether `error` was logged by a resolver, with its request id. The pipeline logs every
 * error it masks; its logger skips these.
 *
 * @example
 * if (isLoggedFault(graphqlError.originalError)) return; // already in the log
 */
export function isLoggedFault(error: unknown): boolean {
  return typeof error === "object" && error !== null && loggedFaults.has(error);
}

function withoutNulls(args: Record<string, unknown>): Record<string, unknown> {
  const input: Record<string, unknown> = {};
  for (const name in args) if (args[name] !== null) input[name] = args[name];
  return input;
}

/**
 * Runs one operation for a resolver. Known failures become GraphQL errors that masking
 * leaves alone; anything else is rethrown for the pipeline to mask and log.
 */
export function resolveOperation(
  run: Runner,
  operation: AnyOperation,
  args: Record<string, unknown>,
  context: ResolverContext,
  used?: UsageHook,
): unknown {
  const principal = context.req?.principal;
  if (principal !== undefined && !principal.allows(operation)) {
    throw new GraphQLError(outOfScope(operation), {
      extensions: { code: "FORBIDDEN" },
    });
  }
  if (used !== undefined && context.req !== undefined) used(context.req, operation);
  // An explicit `null` for an optional argument means "not given", as in REST. The
  // arguments are graphql-jit's own object, made for this call: copied only to drop a null.
  let input = args;
  for (const name in args) {
    if (args[name] === null) {
      input = withoutNulls(args);
      break;
    }
  }
  if (!takeListItems(context, input)) {
    throw new GraphQLError(
      `This request sends more than ${MAX_LIST_ITEMS_PER_REQUEST} list items across its fields; split it.`,
      {
        extensions: {
          code: "BAD_USER_INPUT",
          detail: [
            {
              loc: ["args"],
              msg: `Value error, more than ${MAX_LIST_ITEMS_PER_REQUEST} list items in one request`,
              type: "value_error",
            },
          ],
        },
      },
    );
  }
  try {
    return run(operation, input);
  } catch (error) {
    if (error instanceof InvalidInputError) {
      const detail = takeProblems(context, error.problems);
      const omitted = error.problems.length - detail.length;
      throw new GraphQLError(`Invalid input: ${summarizeProblems(error.problems)}`, {
        extensions: {
          code: "BAD_USER_INPUT",
          detail: locate(detail, "args"),
          ...(omitted > 0 ? { omittedProblems: omitted } : {}),
        },
      });
    }
    if (error instanceof NotFoundError) {
      throw new GraphQLError(error.message, { extensions: { code: "NOT_FOUND" } });
    }
    // Logged here, where the request (and its id) is known; the pipeline masks it in the response.
    if (context.req?.log && typeof error === "object" && error !== null) {
      context.req.log.error(
        {
          requestId: context.req.id,
          err: error,
          operation: `${operation.area}/${operation.name}`,
        },
        "graphql: unexpected fault",
      );
      loggedFaults.add(error);
    }
    throw error;
  }
}
