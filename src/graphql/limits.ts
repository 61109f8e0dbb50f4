/**
 * Request limits for `/graphql`, all checked before anything runs: the size of the query
 * text and its number of tokens before parsing, and during validation its nesting depth,
 * the number of operation fields (calculations) it asks for and of fields it selects. A
 * request over a limit is refused whole with HTTP 400 and an `errors` entry whose
 * `extensions.code` is `LIMIT_EXCEEDED`. Below them, the per-request budgets resolvers draw on while the
 * request runs: problems reported, and list items sent across all fields.
 */
import {
  GraphQLError,
  Lexer,
  type OperationDefinitionNode,
  Source,
  TokenKind,
  type ValidationRule,
} from "graphql";
import { MAX_LIST_ITEMS_PER_REQUEST, takeSentItems } from "../core/budget.js";
import type { Problem } from "../kit/errors.js";
import { measureDocument } from "./measure.js";

export { type DocumentMeasure, measureDocument } from "./measure.js";

export interface GraphqlLimits {
  /** Operation fields (the fields under the area fields, aliases counted) per request. */
  maxOperationFields: number;
  /** Nesting depth of fields, introspection excluded. */
  maxDepth: number;
  /**
   * Fields selected at every level (aliases and fragment spreads counted, introspection
   * included): graphql-jit compiles code for each, about 4.5 KiB of heap kept per field and
   * more than linear time, so 100 operation fields of hundreds of aliased leaves would take
   * seconds and more heap than the process has.
   */
  maxSelectedFields: number;
  /**
   * `__schema` and `__type` fields per request (aliases counted): each may answer the whole
   * schema (about 70 KB of JSON built in the heap), so they are not multiplied freely.
   */
  maxIntrospectionFields: number;
  /** Tokens of the query text (graphql's `parse` `maxTokens`). */
  maxTokens: number;
  /** Bytes of the query text, UTF-8. */
  maxDocumentBytes: number;
}

export const DEFAULT_GRAPHQL_LIMITS: Readonly<GraphqlLimits> = Object.freeze({
  maxOperationFields: 100,
  maxDepth: 8,
  maxSelectedFields: 2000,
  maxIntrospectionFields: 2,
  maxTokens: 2000,
  maxDocumentBytes: 32 * 1024,
});

/**
 * Status and code of every refusal, so clients can tell a limit from a typo. `spec: false`
 * keeps the 400 also for `Accept: application/json`, where yoga answers the spec's own
 * validation errors with 200.
 */
export function limitError(message: string, limit: string, max: number): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: "LIMIT_EXCEEDED", limit, max, http: { status: 400, spec: false } },
  });
}

/**
 * Counts the tokens of `source`, stopping once past `max`. A lexing error ends the count:
 * the parser reports it with its position.
 *
 * @example
 * countTokens("{ a(b: [1, 2]) }", 100); // 11
 */
export function countTokens(source: string, max: number): number {
  const lexer = new Lexer(new Source(source));
  let count = 0;
  try {
    while (lexer.advance().kind !== TokenKind.EOF && count <= max) count += 1;
  } catch {
    // A syntax error: counted so far is all there is to say.
  }
  return count;
}

/** A count for a refusal: fragments spread inside fragments can multiply it past exactness. */
const countText = (count: number, max: number) =>
  Number.isSafeInteger(count) ? String(count) : `far more than ${max}`;

/**
 * A validation rule refusing documents over the depth, operation-field or introspection
 * limit, measured on `operation` (the one a request runs), or on every operation of the
 * document when none is given.
 *
 * @example
 * validate(schema, document, [...specifiedRules, requestLimitsRule(DEFAULT_GRAPHQL_LIMITS)]);
 */
export function requestLimitsRule(
  limits: GraphqlLimits,
  operation?: OperationDefinitionNode,
): ValidationRule {
  return function RequestLimits(context) {
    return {
      Document: {
        enter(document) {
          const {
            operationFields,
            depth,
            introspectionFields,
            introspectionAliases,
            selectedFields,
          } = measureDocument(document, operation);
          if (operationFields > limits.maxOperationFields) {
            const asked = countText(operationFields, limits.maxOperationFields);
            context.reportError(
              limitError(
                `Too many operation fields: the request asks for ${asked} calculations (aliases and fragment spreads count); at most ${limits.maxOperationFields} are allowed per request.`,
                "operationFields",
                limits.maxOperationFields,
              ),
            );
          }
          if (introspectionFields > limits.maxIntrospectionFields) {
            context.reportError(
              limitError(
                `Too many introspection fields: the request asks for ${introspectionFields} \`__schema\` or \`__type\` fields (aliases and fragment spreads count); at most ${limits.maxIntrospectionFields} are allowed per request.`,
                "introspection",
                limits.maxIntrospectionFields,
              ),
            );
          }
          if (introspectionAliases > 0) {
            context.reportError(
              limitError(
                "Aliases are not allowed below `__schema` or `__type`: each one repeats part of the schema in the answer. Ask for each introspection field once.",
                "introspection",
                limits.maxIntrospectionFields,
              ),
            );
          }
          if (depth > limits.maxDepth) {
            context.reportError(
              limitError(
                `The query is nested ${depth} levels deep; at most ${limits.maxDepth} levels are allowed.`,
                "depth",
                limits.maxDepth,
              ),
            );
          }
          // Last: the other limits say more precisely what to change.
          if (selectedFields > limits.maxSelectedFields) {
            const asked = countText(selectedFields, limits.maxSelectedFields);
            context.reportError(
              limitError(
                `Too many fields: the request selects ${asked} fields at all levels (aliases and fragment spreads count); at most ${limits.maxSelectedFields} are allowed per request.`,
                "selectedFields",
                limits.maxSelectedFields,
              ),
            );
          }
          return false;
        },
      },
    };
  };
}

/**
 * Refuses operations the schema has no root type for (every one but `query` here), as
 * graphql 17's KnownOperationTypesRule does. Without it, such a document passes graphql
 * 16's validation and fails in execution as a server error.
 */
export const KnownOperationTypes: ValidationRule = (context) => ({
  OperationDefinition(node) {
    if (context.getSchema().getRootType(node.operation)) return;
    context.reportError(
      new GraphQLError(`The ${node.operation} operation is not supported by the schema.`, {
        nodes: node,
      }),
    );
  },
});

/**
 * The validation rules this service adds to GraphQL's own: request limits (on `operation`,
 * the one a request runs), and known operation types.
 *
 * @example
 * validate(schema, document, [...specifiedRules, ...requestRules(DEFAULT_GRAPHQL_LIMITS)]);
 */
export function requestRules(
  limits: GraphqlLimits,
  operation?: OperationDefinitionNode,
): ValidationRule[] {
  return [requestLimitsRule(limits, operation), KnownOperationTypes];
}

/**
 * Why the query text itself is refused (too many bytes, too many tokens), or undefined
 * when it is within `limits`: the pipeline's first step, before the text is parsed.
 *
 * @example
 * queryTextProblem("{ math { sum(numbers: [1]) { decimal } } }", DEFAULT_GRAPHQL_LIMITS); // undefined
 */
export function queryTextProblem(query: string, limits: GraphqlLimits): GraphQLError | undefined {
  const bytes = Buffer.byteLength(query, "utf8");
  if (bytes > limits.maxDocumentBytes) {
    return limitError(
      `The query text is ${bytes} bytes long; at most ${limits.maxDocumentBytes} bytes are allowed (send long lists as variables).`,
      "documentBytes",
      limits.maxDocumentBytes,
    );
  }
  // Counted here rather than by the parser, whose error yoga reports as a syntax error.
  if (countTokens(query, limits.maxTokens) > limits.maxTokens) {
    return limitError(
      `The query has more than ${limits.maxTokens} tokens; at most ${limits.maxTokens} are allowed (send long lists as variables).`,
      "tokens",
      limits.maxTokens,
    );
  }
  return undefined;
}

/* Per-request budgets the resolvers draw on, keyed by the request's GraphQL context. */

/**
 * Problems reported in one response, across all its fields. A batch may repeat one list
 * variable of 10,000 bad items in 100 fields; without a bound, a 50 KB request would get a
 * 140 MB answer. Every failing field still gets at least its first problem.
 */
export const MAX_PROBLEMS_PER_RESPONSE = 1000;

/** Problems each request may still report, keyed by the request's GraphQL context. */
const problemBudgets = new WeakMap<object, { remaining: number }>();

export function takeProblems(context: object, problems: Problem[]): Problem[] {
  let budget = problemBudgets.get(context);
  if (!budget) {
    budget = { remaining: MAX_PROBLEMS_PER_RESPONSE };
    problemBudgets.set(context, budget);
  }
  const taken = problems.slice(0, Math.max(1, budget.remaining));
  budget.remaining = Math.max(0, budget.remaining - taken.length);
  return taken;
}

/**
 * The refusal for variables that hold more list items (or object fields) than one request
 * may send, or undefined. Counted on the JSON as sent, before graphql coerces any: coercing
 * 245,000 items spread over 98 variables cost more than every field they fed.
 *
 * @example
 * variablesProblem({ n: Array(20_000).fill("1") }); // LIMIT_EXCEEDED, limit "listItems"
 */
export function variablesProblem(variables: Record<string, unknown>): GraphQLError | undefined {
  const budget = { left: MAX_LIST_ITEMS_PER_REQUEST };
  for (const name in variables) {
    takeSentItems(variables[name], budget);
    if (budget.left < 0) {
      return limitError(
        `The variables hold more than ${MAX_LIST_ITEMS_PER_REQUEST} list items (object fields counted); at most ${MAX_LIST_ITEMS_PER_REQUEST} are allowed per request (as in one REST request). Split the request.`,
        "listItems",
        MAX_LIST_ITEMS_PER_REQUEST,
      );
    }
  }
  return undefined;
}

/**
 * Charges `input`'s list items to the request; false once the request's budget is spent.
 * The budget is a field of the request's GraphQL context (one object per request), not a
 * weak map entry made per request.
 */
export function takeListItems(
  context: { listItemsLeft?: number },
  input: Record<string, unknown>,
): boolean {
  let items = 0;
  for (const name in input) {
    const value = input[name];
    if (Array.isArray(value)) items += value.length;
  }
  if (items === 0) return true;
  const left = (context.listItemsLeft ?? MAX_LIST_ITEMS_PER_REQUEST) - items;
  context.listItemsLeft = left;
  return left >= 0;
}
