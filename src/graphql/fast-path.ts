/**
 * The fast path for the usual GraphQL request: `POST /graphql`, a JSON body with `query`
 * (and maybe `variables`, `operationName`), answered as `application/json`. Such a
 * request skips yoga's Fetch-API emulation (a Request and a Response object, headers,
 * envelop's hook chain) and runs the query's compiled form directly. Everything else
 * (GET, other content types and media types, batches, and every document that does not
 * parse, validate or fit the limits) goes to yoga, which answers as it always has: the
 * fast path only ever runs documents that passed the same checks yoga applies.
 *
 * Results with errors are turned into a response by yoga's own `processRegularResult`,
 * and errors are masked by yoga's own `maskError`, so both paths answer alike; the tests
 * send the same requests through both and compare the answers.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import {
  type DocumentNode,
  type ExecutionResult,
  type GraphQLError,
  type GraphQLSchema,
  getOperationAST,
  parse,
  specifiedRules,
  validate,
} from "graphql";
import { type CompiledQuery, compileQuery, isCompiledQuery } from "graphql-jit";
import { isPromise, maskError, processRegularResult, type YogaServerInstance } from "graphql-yoga";
import type { Budget, CostedFields } from "./budget.js";
import { type GraphqlLimits, queryTextProblem, requestRules } from "./limits.js";
import { type Charge, quotaRefusal, quotaUnits } from "./quota.js";

/** What the fast path answers: a status, headers and a JSON body. */
export interface FastAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

interface Prepared {
  /** Compiled at once, or (for a document with costed fields) once a request fits the budget. */
  compiled: CompiledQuery | undefined;
  document: DocumentNode;
  operationName: string | undefined;
  /** Operation fields, charged to the key's quota. */
  units: number;
  /** Fields whose declared costs are added up per request. */
  costed: CostedFields;
}

interface FastPathOptions {
  schema: GraphQLSchema;
  limits: GraphqlLimits;
  budget: Budget;
  yoga: Pick<YogaServerInstance<object, object>, "fetchAPI">;
  /** The message of a masked (unexpected) error, as yoga is configured. */
  maskedMessage: string;
  /** Logs an error that masking hid from the client, as yoga's logger does. */
  logMasked: (error: unknown) => void;
  charge?: Charge;
}

/** Distinct query texts kept compiled (each with the operation names asked of it). */
const PREPARED_CACHED = 256;

const JSON_ANSWER_HEADERS = Object.freeze({ "content-type": "application/json; charset=utf-8" });

/** Body keys yoga accepts (`extensions` is left to yoga). */
const FAST_KEYS = new Set(["query", "variables", "operationName"]);

/** A JSON body the fast path can take, or undefined. */
function fastParams(request: FastifyRequest) {
  if (request.method !== "POST") return undefined;
  const contentType = request.headers["content-type"];
  if (typeof contentType !== "string" || !/^application\/json\s*(;|$)/i.test(contentType)) {
    return undefined;
  }
  // With no Accept, `*/*` or `application/json`, yoga answers `application/json`.
  const accept = request.headers.accept;
  if (accept !== undefined && accept !== "*/*" && accept !== "application/json") return undefined;
  const body = request.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  for (const key of Object.keys(body)) if (!FAST_KEYS.has(key)) return undefined;
  const { query, variables, operationName } = body as Record<string, unknown>;
  if (typeof query !== "string") return undefined;
  if (variables != null && (typeof variables !== "object" || Array.isArray(variables))) {
    return undefined;
  }
  if (operationName != null && typeof operationName !== "string") return undefined;
  return {
    query,
    variables: (variables ?? {}) as Record<string, unknown>,
    operationName: (operationName ?? undefined) as string | undefined,
  };
}

/**
 * Creates the fast path. It answers `undefined` for any request it leaves to yoga.
 *
 * @example
 * const fast = createFastPath({ schema, limits, yoga, maskedMessage, logMasked });
 * const answer = await fast(request, reply); // a value, a promise of one, or undefined
 * if (answer) reply.status(answer.status).headers(answer.headers).send(answer.body);
 */
export function createFastPath(options: FastPathOptions) {
  const { schema, limits, budget, yoga, maskedMessage, logMasked, charge } = options;
  const rules = [...specifiedRules, ...requestRules(limits)];
  // By query text, then operation name: no key is built per request (a long query would
  // be copied into it), and the text's hash is all a lookup computes.
  const prepared = new Map<string, Map<string | undefined, Prepared>>();

  /** Parses, checks and compiles a query, as yoga would; null when yoga must answer. */
  function prepare(query: string, operationName: string | undefined): Prepared | null {
    if (queryTextProblem(query, limits)) return null;
    let document: DocumentNode;
    try {
      document = parse(query, { maxTokens: limits.maxTokens });
    } catch {
      return null;
    }
    if (validate(schema, document, rules).length > 0) return null;
    if (getOperationAST(document, operationName)?.operation !== "query") return null;
    const costed = budget.fieldsOf(document, operationName);
    // A document refused by the budget is never compiled: that takes long for 100 fields.
    let compiled: CompiledQuery | undefined;
    if (costed.definition === null) {
      compiled = compile(document, operationName);
      if (!compiled) return null;
    }
    return { compiled, document, operationName, units: quotaUnits(document), costed };
  }

  function compile(document: DocumentNode, operationName: string | undefined) {
    const compiled = compileQuery(schema, document, operationName);
    return isCompiledQuery(compiled) ? compiled : undefined;
  }

  function preparedFor(query: string, operationName: string | undefined): Prepared | null {
    let byName = prepared.get(query);
    const known = byName?.get(operationName);
    if (known) return known;
    const entry = prepare(query, operationName);
    // Documents yoga must answer are not remembered: a client may send endless variants.
    if (entry === null) return null;
    if (!byName) {
      if (prepared.size >= PREPARED_CACHED) {
        prepared.delete(prepared.keys().next().value as string);
      }
      byName = new Map();
      prepared.set(query, byName);
    }
    byName.set(operationName, entry);
    return entry;
  }

  /** A result with errors becomes a response exactly as yoga makes it. */
  async function answerWithErrors(result: ExecutionResult): Promise<FastAnswer> {
    const response = await processRegularResult(result, yoga.fetchAPI, "application/json");
    const headers: Record<string, string> = {};
    for (const [name, value] of response.headers) headers[name] = value;
    return { status: response.status, headers, body: await response.text() };
  }

  function masked(errors: readonly GraphQLError[]): GraphQLError[] {
    return errors.map((error) => {
      const mask = maskError(error, maskedMessage, false) as GraphQLError;
      if (mask !== error) logMasked(error);
      return mask;
    });
  }

  function answer(
    compiled: CompiledQuery,
    result: ExecutionResult,
  ): FastAnswer | Promise<FastAnswer> {
    if (result.errors?.length) {
      // Yoga serialises such a result with the compiled query's own stringify, too.
      const withErrors = { ...result, errors: masked(result.errors) };
      return answerWithErrors(Object.assign(withErrors, { stringify: compiled.stringify }));
    }
    return { status: 200, headers: JSON_ANSWER_HEADERS, body: compiled.stringify(result) };
  }

  function run(
    compiled: CompiledQuery,
    context: object,
    variables: Record<string, unknown>,
  ): FastAnswer | Promise<FastAnswer> {
    const result = compiled.query(undefined, context, variables);
    // Resolvers here answer synchronously: no promise, no microtask, unless one is async.
    return isPromise(result)
      ? result.then((done) => answer(compiled, done))
      : answer(compiled, result);
  }

  /**
   * The answer, synchronous when nothing on the way is asynchronous (the usual case: a
   * prepared query, no quota store to ask); undefined, at once, for requests left to yoga.
   */
  return function fastPath(
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastAnswer | Promise<FastAnswer> | undefined {
    const params = fastParams(request);
    if (!params) return undefined;
    const entry = preparedFor(params.query, params.operationName);
    if (!entry) return undefined;
    // The same context shape yoga gives resolvers: they need the request (its logger),
    // and the object itself keys the request's problem and list-item budgets.
    const context = { req: request, reply };
    // Before the quota is charged, as yoga's plugins run.
    const refusal = budget.check(entry.costed, params.variables);
    if (refusal) return answerWithErrors({ errors: [refusal] });
    entry.compiled ??= compile(entry.document, entry.operationName);
    const compiled = entry.compiled;
    if (!compiled) return undefined;
    if (!charge) return run(compiled, context, params.variables);
    return charge(request, reply, entry.units).then((state) =>
      state && !state.allowed
        ? answerWithErrors({ errors: [quotaRefusal(state, entry.units)] })
        : run(compiled, context, params.variables),
    );
  };
}
