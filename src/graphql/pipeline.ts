/**
 * The one GraphQL execution pipeline: how a request's parameters and its context become
 * a result. Every GraphQL request of the service runs here, in this order:
 *
 *   text limits → parse → operation resolution (and no mutation over GET) → validation
 *   (GraphQL's rules and the service's) → budget → quota → compiled execution (graphql-jit)
 *   → error masking
 *
 * A document that passes everything up to the budget is remembered (by query text, then
 * operation name) from its second sight, so a repeated request only checks its budget,
 * charges its quota and runs. What is remembered is bounded by an estimate of the heap it holds
 * (prepared-cache.ts). Documents that fail are never remembered: a client may send endless
 * variants. With quotas on, a document not remembered is validated and compiled only for a
 * key that has units left: a key already over its quota gets its 429 after the parse.
 *
 * Two HTTP adapters feed it (adapters.ts, docs/graphql.md): the shortcut for the usual
 * JSON POST, and yoga (register.ts) for every other request. They may read parameters,
 * refuse a request's HTTP form (method, media types, the shape of the parameters) and turn
 * a result into an answer; they may not parse, validate, limit, charge, execute or mask
 * anything themselves. Yoga's adapter asks for {@link textProblem} before yoga checks the
 * parameters' shapes, so an over-long text is refused before a malformed parameter.
 */
import type { FastifyBaseLogger, FastifyReply, FastifyRequest } from "fastify";
import {
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  type OperationDefinitionNode,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import type { QuotaState } from "../access/rate-limit.js";
import type { Budget, CostedFields } from "./budget.js";
import {
  type GraphqlLimits,
  measureDocument,
  queryTextProblem,
  requestRules,
  variablesProblem,
} from "./limits.js";
import {
  ByteBoundedCache,
  PREPARED_CACHE_BYTES,
  preparedBytes,
  SecondSight,
} from "./prepared-cache.js";
import { type Charge, quotaRefusal, quotaUnits } from "./quota.js";

/** What the pipeline and the resolvers read of a request: its method, id and logger. */
export interface GraphqlRequest {
  method: string;
  id: string;
  log: FastifyBaseLogger;
}

/**
 * What resolvers get as context: the fastify request and its reply (which a quota charge
 * needs), from either adapter (the route's own, yoga); tests may give less.
 */
export interface RequestContext {
  req: GraphqlRequest;
  reply?: FastifyReply;
  /** List items the request's fields may still send, kept by the resolvers (resolve.ts). */
  listItemsLeft?: number;
}

/** A request's parameters, their shapes already checked by the adapter. */
export interface GraphqlParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

/** A result, with the serialiser of its compiled query once it ran (yoga's convention). */
export type GraphqlResult = ExecutionResult & { stringify?: (result: ExecutionResult) => string };

export interface PipelineOptions {
  schema: GraphQLSchema;
  limits: GraphqlLimits;
  budget: Budget;
  /** The message of a masked (unexpected) error, as yoga is configured. */
  maskedMessage: string;
  /** Logs an error that masking hid from the client, as yoga's logger does. */
  logMasked: (error: unknown) => void;
  /** Charges a request's operation fields to its key's quota, when quotas are on. */
  charge?: Charge;
  /** Heap the prepared documents may hold, as estimated; {@link PREPARED_CACHE_BYTES} by default. */
  preparedCacheBytes?: number;
}

interface Prepared {
  /** The text it was prepared from: a looked-up entry is used only for this text. */
  query: string;
  document: DocumentNode;
  operationName: string | undefined;
  /** Compiled at once, or (for a document with costed fields) once a request fits the budget. */
  compiled: CompiledQuery | undefined;
  /** Operation fields, charged to the key's quota. */
  units: number;
  /** Fields whose declared costs are added up per request. */
  costed: CostedFields;
}

/** A parsed document and the operation a request runs of it: what validation starts from. */
interface Parsed {
  document: DocumentNode;
  operation: OperationDefinitionNode;
}

const newByName = () => new Map<string | undefined, Prepared>();

/** The variables of a request that sends none: one object, read only, for every such request. */
const NO_VARIABLES: Record<string, unknown> = Object.freeze({});

/** Yoga's own refusals (GraphQL over HTTP), with its messages and statuses. */
const NO_OPERATION = new GraphQLError("Could not determine what operation to execute.", {
  extensions: { code: "OPERATION_RESOLUTION_FAILURE", http: { status: 400 } },
});
const MUTATION_VIA_GET = new GraphQLError(
  "Can only perform a mutation operation from a POST request.",
  { extensions: { http: { status: 405, headers: { Allow: "POST" } }, code: "BAD_REQUEST" } },
);

/**
 * Whether `value` is a promise (a thenable), as graphql-tools' `isPromise` that yoga uses.
 *
 * @example
 * isPromise(compiled.query(undefined, context, variables)); // false for synchronous resolvers
 */
export function isPromise<T>(value: T | Promise<T>): value is Promise<T> {
  return typeof (value as { then?: unknown } | null)?.then === "function";
}

/** An error that is a GraphQLError all the way down: a refusal, never masked. */
export function isOriginalGraphQLError(error: unknown): boolean {
  if (!(error instanceof GraphQLError)) return false;
  return error.originalError == null || isOriginalGraphQLError(error.originalError);
}

/**
 * Yoga's `maskError` as configured here (`isDev: false`), written out so that yoga itself
 * is loaded only by the requests that go through it (adapters.ts): a GraphQL error is
 * passed on as it is; anything else becomes `message` at the same place, with code
 * `INTERNAL_SERVER_ERROR` and `unexpected: true` (and the HTTP status it asked for). The
 * pipeline test checks it against yoga's own.
 *
 * @example
 * maskError(new GraphQLError("x", { originalError: new Error("secret") }), "Unexpected error.");
 */
export function maskError(error: unknown, message: string): GraphQLError {
  if (isOriginalGraphQLError(error)) return error as GraphQLError;
  const extensions: Record<string, unknown> = { code: "INTERNAL_SERVER_ERROR", unexpected: true };
  if (!(error instanceof GraphQLError)) return new GraphQLError(message, { extensions });
  if (error.extensions?.http) extensions.http = error.extensions.http;
  return rebuiltError(error, message, extensions);
}

/**
 * `error` at the same place (its nodes, source, positions and path) with `message` and
 * `extensions`, as yoga rebuilds an error: one that only carries `locations` (graphql-jit's
 * variable errors) comes out without them.
 */
export function rebuiltError(
  error: GraphQLError,
  message: string,
  extensions: Record<string, unknown> | undefined,
): GraphQLError {
  return new GraphQLError(message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    extensions,
  });
}

/** Marks errors of a stage as yoga does: a code, and a 400 that GraphQL over HTTP may soften. */
function marked(error: GraphQLError, code: string): GraphQLError {
  const extensions = error.extensions as Record<string, unknown>;
  extensions.code ||= code;
  extensions.http ||= {};
  const http = extensions.http as { spec?: boolean; status?: number };
  http.spec ??= true;
  http.status ||= 400;
  return error;
}

/**
 * A variable graphql-jit could not coerce (its error has no extensions): `BAD_USER_INPUT`,
 * 400 as `application/graphql-response+json`; any other error passes on for masking.
 */
function coercionError(error: GraphQLError): GraphQLError {
  if (!isOriginalGraphQLError(error) || error.extensions?.code !== undefined) return error;
  return marked(rebuiltError(error, error.message, { ...error.extensions }), "BAD_USER_INPUT");
}

/**
 * Creates the pipeline for `schema`.
 *
 * @example
 * const pipeline = createPipeline({ schema, limits, budget, maskedMessage, logMasked });
 * const result = await pipeline.run({ query: "{ __typename }" }, { req, reply });
 */
export function createPipeline(options: PipelineOptions) {
  const { schema, limits, budget, maskedMessage, logMasked, charge } = options;
  // By query text, then operation name: no key is built per request (a long query would
  // be copied into it), and the text's hash is all a lookup computes.
  const prepared = new ByteBoundedCache<Map<string | undefined, Prepared>>(
    options.preparedCacheBytes ?? PREPARED_CACHE_BYTES,
  );
  const secondSight = new SecondSight();

  /** The query text's refusal (too long, too many tokens), or undefined; free once prepared. */
  function textProblem(query: string): GraphQLError | undefined {
    return prepared.has(query) ? undefined : queryTextProblem(query, limits);
  }

  /** Text limits, parse and operation resolution: the cheap steps, bounded by the text limits. */
  function parsed(
    query: string,
    operationName: string | undefined,
    viaGet: boolean,
  ): Parsed | GraphqlResult {
    const tooLong = queryTextProblem(query, limits);
    if (tooLong) return { errors: [tooLong] };
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: limits.maxTokens });
    } catch (error) {
      if (!(error instanceof GraphQLError)) throw error;
      return { errors: [marked(error, "GRAPHQL_PARSE_FAILED")] };
    }
    // Queries only: the schema has no other root type, and validation refuses the others.
    const operation = getOperationAST(document, operationName);
    if (!operation) return { errors: [NO_OPERATION] };
    if (operation.operation === "mutation" && viaGet) return { errors: [MUTATION_VIA_GET] };
    return { document, operation };
  }

  /**
   * Validates and compiles a parsed document, and remembers it; a refusal when it fails a
   * check. The costly steps: the cache spares them to a repeated request.
   */
  function prepare(
    query: string,
    operationName: string | undefined,
    { document, operation }: Parsed,
  ): Prepared | GraphqlResult {
    // The limits are the operation's that runs, as the budget and the quota count it.
    const invalid = validate(schema, document, [
      ...specifiedRules,
      ...requestRules(limits, operation),
    ]);
    if (invalid.length > 0) {
      return { errors: invalid.map((error) => marked(error, "GRAPHQL_VALIDATION_FAILED")) };
    }
    const costed = budget.fieldsOf(document, operationName);
    // A document refused by the budget is never compiled: that takes long for 100 fields.
    const compiled = costed.definition === null ? compile(document, operationName) : undefined;
    if (compiled && !isCompiledQuery(compiled)) return masked(compiled);
    const entry = {
      query,
      document,
      operationName,
      compiled,
      units: quotaUnits(document, operation),
      costed,
    };
    // Charged as compiled even when compilation waits for the budget: it may come next.
    const bytes = preparedBytes(
      document.tokenCount ?? limits.maxTokens,
      measureDocument(document, operation).selectedFields,
    );
    // Kept from its second sight: a document sent once leaves nothing behind.
    if (prepared.has(query) || secondSight.admits(query)) {
      prepared.charge(query, bytes, newByName)?.set(operationName, entry);
    }
    return entry;
  }

  function compile(document: DocumentNode, operationName: string | undefined) {
    return compileQuery(schema, document, operationName);
  }

  /** Unexpected errors become yoga's masked error, logged with the original. */
  function masked(result: ExecutionResult): GraphqlResult {
    if (!result.errors?.length) return result;
    const errors = result.errors.map((error) => {
      const mask = maskError(error, maskedMessage);
      if (mask !== error) logMasked(error);
      return mask;
    });
    return { ...result, errors };
  }

  function finish(compiled: CompiledQuery, result: ExecutionResult): GraphqlResult {
    // graphql-jit answers variables it cannot coerce with errors and no data, without a
    // code: a request error (API.md: every error has a code; 4xx when nothing executed).
    const { errors } = result;
    const refused = errors !== undefined && !("data" in result);
    const done = masked(refused ? { errors: errors.map(coercionError) } : result);
    done.stringify = compiled.stringify;
    return done;
  }

  function execute(
    compiled: CompiledQuery,
    context: RequestContext,
    variables: Record<string, unknown>,
  ): GraphqlResult | Promise<GraphqlResult> {
    const result = compiled.query(undefined, context, variables);
    // Resolvers here answer synchronously: no promise, no microtask, unless one is async.
    return isPromise(result)
      ? result.then((done) => finish(compiled, done))
      : finish(compiled, result);
  }

  /**
   * The document prepared for `query` and `operationName`, or undefined: the cache lookup a
   * request's {@link run} would make, done early (to tell a costly request, register.ts)
   * and handed to `run` so that it is made once.
   */
  function lookup(query: string, operationName: string | null | undefined): Prepared | undefined {
    return prepared.get(query)?.get(operationName ?? undefined);
  }

  /**
   * The result of a request, synchronous when nothing on the way is asynchronous (the
   * usual case: a prepared query, no quota store to ask). `context` is what resolvers get;
   * the object itself keys the request's problem and list-item budgets. `found` is what
   * {@link lookup} found for the request, if it was asked.
   */
  function run(
    params: GraphqlParams,
    context: RequestContext,
    found?: Prepared,
  ): GraphqlResult | Promise<GraphqlResult> {
    const operationName = params.operationName ?? undefined;
    // The same text is most often the same string: compared by reference, not read again.
    const known =
      found !== undefined && found.query === params.query && found.operationName === operationName
        ? found
        : prepared.get(params.query)?.get(operationName);
    if (known) return runPrepared(known, params, context);
    const first = parsed(params.query, operationName, context.req.method === "GET");
    if (!("document" in first)) return first;
    if (!charge) return runNew(first, params, context);
    // A key whose quota cannot cover the document is refused before the costly steps
    // (charging nothing reads its state): else a key answered only 429s could still fill
    // the heap and the CPU with documents prepared for nothing (a refused charge keeps
    // none of its units, so the units left never run out). Charged once the budget passes.
    const units = quotaUnits(first.document, first.operation);
    const peeked = charge(context.req as FastifyRequest, context.reply as FastifyReply, 0);
    const afterPeek = (state: QuotaState | undefined) =>
      state && (!state.allowed || state.remaining < units)
        ? { errors: [quotaRefusal(state, units)] }
        : runNew(first, params, context);
    return isPromise(peeked) ? peeked.then(afterPeek) : afterPeek(peeked);
  }

  function runNew(
    first: Parsed,
    params: GraphqlParams,
    context: RequestContext,
  ): GraphqlResult | Promise<GraphqlResult> {
    const entry = prepare(params.query, params.operationName ?? undefined, first);
    if (!("document" in entry)) return entry;
    return runPrepared(entry, params, context);
  }

  function runPrepared(
    entry: Prepared,
    params: GraphqlParams,
    context: RequestContext,
  ): GraphqlResult | Promise<GraphqlResult> {
    const operationName = entry.operationName;
    const variables = params.variables ?? NO_VARIABLES;
    const tooMany = variablesProblem(variables);
    if (tooMany) return { errors: [tooMany] };
    // Before the quota is charged: a refused request costs nothing.
    const refusal = budget.check(entry.costed, variables);
    if (refusal) return { errors: [refusal] };
    if (entry.compiled === undefined) {
      const compiled = compile(entry.document, operationName);
      if (!isCompiledQuery(compiled)) return masked(compiled);
      entry.compiled = compiled;
    }
    const compiled = entry.compiled;
    if (!charge) return execute(compiled, context, variables);
    // Only fastify's adapters run with quotas on, and they pass fastify's request and reply.
    // Counters in this process answer at once: no promise, the request is answered in this tick.
    const state = charge(context.req as FastifyRequest, context.reply as FastifyReply, entry.units);
    if (isPromise(state)) {
      return state.then((done) => charged(done, entry.units, compiled, context, variables));
    }
    return charged(state, entry.units, compiled, context, variables);
  }

  /** The request's result once its charge is answered (a state read before anything yields). */
  function charged(
    state: QuotaState | undefined,
    units: number,
    compiled: CompiledQuery,
    context: RequestContext,
    variables: Record<string, unknown>,
  ): GraphqlResult | Promise<GraphqlResult> {
    return state && !state.allowed
      ? { errors: [quotaRefusal(state, units)] }
      : execute(compiled, context, variables);
  }

  /** How many query texts are kept prepared, and the heap they are estimated to hold. */
  function preparedStats(): { texts: number; bytes: number } {
    return { texts: prepared.size, bytes: prepared.bytes };
  }

  return { run, lookup, textProblem, preparedStats };
}

export type Pipeline = ReturnType<typeof createPipeline>;

/** A document the pipeline has prepared, as {@link Pipeline.lookup} finds it. */
export type PreparedDocument = Prepared;
