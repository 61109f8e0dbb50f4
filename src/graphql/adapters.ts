/**
 * The two HTTP adapters of `/graphql`. Both hand a request's parameters and its context to
 * the one pipeline (pipeline.ts) and write what it returns; neither parses, validates,
 * limits, charges, executes or masks anything itself.
 *
 * - The shortcut, for the usual request: `POST` with a JSON object body of plainly
 *   well-formed parameters, answered as `application/json`. It skips yoga's Fetch-API
 *   emulation (a Request and a Response object, headers, hook chains) and answers in the
 *   same tick when nothing on the way is asynchronous. A result with errors gets the status,
 *   headers and body yoga's result processor would give it ({@link errorAnswer}).
 * - Yoga, for everything else (GET, `application/graphql`, other `Accept` media types,
 *   malformed parameters): it reads and checks the parameters and negotiates the answer as
 *   always, and {@link usePipeline} makes the pipeline its parameter handler. Yoga is
 *   loaded by the first request that needs it (register.ts): a process that only answers
 *   the shortcut's requests never holds it (about 7 MB).
 */
import type { IncomingHttpHeaders } from "node:http";
import type { FastifyReply, FastifyRequest, HookHandlerDoneFunction } from "fastify";
import { type ExecutionResult, GraphQLError } from "graphql";
import type { OnParamsEventPayload, Plugin } from "graphql-yoga";
import { MAX_LIST_ITEMS_PER_REQUEST } from "../core/budget.js";
import type { QueryValues } from "../core/query.js";
import { isJson } from "./http-errors.js";
import {
  type GraphqlParams,
  type GraphqlResult,
  isOriginalGraphQLError,
  isPromise,
  type Pipeline,
  type PreparedDocument,
  type RequestContext,
  rebuiltError,
} from "./pipeline.js";

declare module "fastify" {
  interface FastifyRequest {
    /** What `/graphql`'s weighing hook found prepared for the request, for its handler. */
    graphqlPrepared?: PreparedDocument | undefined;
  }
}

const JSON_ANSWER_HEADERS: Readonly<Record<string, string>> = Object.freeze({
  "content-type": "application/json; charset=utf-8",
});

/** Body keys the shortcut takes; any other (even null) is left to yoga to judge. */
const SHORTCUT_KEYS = new Set(["query", "variables", "operationName", "extensions"]);

const isObjectOrNull = (value: unknown) =>
  value == null || (typeof value === "object" && !Array.isArray(value));

/**
 * Whether a request's method and headers are the shortcut's: a `POST` of JSON, answered as
 * `application/json` (no `Accept`, any media type, or `application/json`: yoga then answers
 * JSON).
 *
 * @example
 * shortcutHeaders("POST", { "content-type": "application/json" }); // true
 */
export function shortcutHeaders(method: string | undefined, headers: IncomingHttpHeaders): boolean {
  if (method !== "POST" || !isJson(headers["content-type"])) return false;
  const accept = headers.accept;
  return accept === undefined || accept === "*/*" || accept === "application/json";
}

/**
 * A parsed JSON body as the shortcut's parameters, or undefined: an object of plainly
 * well-formed parameters only; yoga judges (and refuses) anything else.
 *
 * @example
 * shortcutBody({ query: "{ … }", variables: { n: 2 } }); // the body itself
 */
export function shortcutBody(body: unknown): GraphqlParams | undefined {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  // A plain loop: no array of keys made per request (a parsed JSON body has no prototype keys).
  for (const key in body) if (!SHORTCUT_KEYS.has(key)) return undefined;
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (typeof query !== "string" || !isObjectOrNull(variables) || !isObjectOrNull(extensions)) {
    return undefined;
  }
  if (operationName != null && typeof operationName !== "string") return undefined;
  return body as GraphqlParams;
}

/**
 * The parameters of a request the shortcut takes, or undefined: the request goes to yoga,
 * which answers it (and refuses malformed parameters) as it always has.
 *
 * @example
 * shortcutParams(request); // the body itself, e.g. { query: "{ … }", variables: { n: 2 } }
 */
export function shortcutParams(
  request: Pick<FastifyRequest, "method" | "headers" | "body">,
): GraphqlParams | undefined {
  return shortcutHeaders(request.method, request.headers) ? shortcutBody(request.body) : undefined;
}

type HttpExtension = { status?: number; headers?: Record<string, string>; spec?: boolean };

const httpOf = (extensions: Record<string, unknown> | undefined) =>
  extensions?.http as HttpExtension | undefined;

/**
 * What yoga's regular result processor answers for `application/json`, written out so that
 * the shortcut never loads yoga: the status and headers the errors ask for (the highest
 * status; 200 when every error is a GraphQL error whose status GraphQL over HTTP lets
 * `application/json` soften; 500 for an unexpected error without data), and the result
 * without the internal `http` and `unexpected` extensions. The fast-path tests compare
 * both adapters' answers.
 */
export function errorAnswer(result: GraphqlResult): {
  status: number;
  headers: Record<string, string>;
  body: string;
} {
  const headers: Record<string, string> = { "content-type": "application/json; charset=utf-8" };
  const errors = result.errors ?? [];
  const soften =
    errors.some((error) => error instanceof GraphQLError) &&
    errors.some((error) => {
      const original = error.extensions?.originalError;
      return !original || original instanceof GraphQLError;
    });
  let status = httpOf(result.extensions)?.status;
  Object.assign(headers, lowerCased(httpOf(result.extensions)?.headers));
  let unexpected = false;
  for (const error of errors) {
    const http = httpOf(error.extensions);
    if (http) {
      Object.assign(headers, lowerCased(http.headers));
      if (soften && http.spec) continue;
      if (http.status && (!status || http.status > status)) status = http.status;
    } else if (!isOriginalGraphQLError(error) || error.extensions?.unexpected) {
      unexpected = true;
    }
  }
  if (errors.length === 0) status ||= 200;
  status ||= unexpected && !("data" in result) ? 500 : 200;
  return { status, headers, body: (result.stringify ?? JSON.stringify)(withoutInternals(result)) };
}

function lowerCased(headers: Record<string, string> | undefined): Record<string, string> {
  const lowered: Record<string, string> = {};
  for (const name in headers) lowered[name.toLowerCase()] = headers[name] as string;
  return lowered;
}

/** The result as sent: errors without their `http` and `unexpected` extensions. */
function withoutInternals(result: ExecutionResult): ExecutionResult {
  if (!result.errors?.length && !result.extensions?.http) return result;
  const sent: Record<string, unknown> = { ...result };
  if (result.errors) {
    sent.errors = result.errors.map((error) => {
      const { http: _http, unexpected: _unexpected, ...rest } = error.extensions ?? {};
      return rebuiltError(error, error.message, Object.keys(rest).length > 0 ? rest : undefined);
    });
  }
  if (result.extensions) {
    const { http: _http, ...rest } = result.extensions;
    sent.extensions = Object.keys(rest).length > 0 ? rest : undefined;
  }
  return sent as ExecutionResult;
}

/**
 * What a result is answered with over HTTP as `application/json`: 200 with the compiled
 * query's serialisation, or what {@link errorAnswer} says for errors. Both shortcuts send it.
 */
export function answerOf(result: GraphqlResult): {
  status: number;
  headers: Readonly<Record<string, string>>;
  body: string;
} {
  if (result.errors?.length || !result.stringify) return errorAnswer(result);
  return { status: 200, headers: JSON_ANSWER_HEADERS, body: result.stringify(result) };
}

function send(reply: FastifyReply, result: GraphqlResult) {
  const answer = answerOf(result);
  return reply.status(answer.status).headers(answer.headers).send(answer.body);
}

/**
 * Creates the shortcut. It answers undefined, at once, for a request it leaves to yoga;
 * otherwise it sends the answer, in the same tick when the pipeline's result is ready.
 *
 * @example
 * const shortcut = createShortcut(pipeline);
 * if (shortcut(request, reply) === undefined) return viaYoga(request, reply);
 */
export function createShortcut(pipeline: Pipeline) {
  const sendResult = (reply: FastifyReply) => (result: GraphqlResult) => send(reply, result);
  return function shortcut(
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply | Promise<FastifyReply> | undefined {
    const params = shortcutParams(request);
    if (!params) return undefined;
    // The same context yoga hands the pipeline (its server context), with the request's
    // list-item budget made in place, so every request's context has one shape.
    const result = pipeline.run(
      params,
      { req: request, reply, listItemsLeft: MAX_LIST_ITEMS_PER_REQUEST },
      request.graphqlPrepared,
    );
    return isPromise(result) ? result.then(sendResult(reply)) : send(reply, result);
  };
}

/**
 * The yoga plugin: once yoga has read and checked a request's parameters, the pipeline
 * answers them (yoga's own parse, validation and execution never run).
 *
 * @example
 * createYoga({ schema, plugins: [useFastifyParams(), usePipeline(pipeline)] });
 */
export function usePipeline(pipeline: Pipeline): Plugin<object, RequestContext> {
  const handler: OnParamsEventPayload<RequestContext>["paramsHandler"] = ({ params, context }) =>
    pipeline.run(params as GraphqlParams, context, (context.req as FastifyRequest).graphqlPrepared);
  return {
    onParams({ params, setParamsHandler }) {
      // A query text over the limits is refused before yoga checks the parameters' shapes.
      if (typeof params.query === "string") {
        const problem = pipeline.textProblem(params.query);
        if (problem) throw problem;
      }
      setParamsHandler(handler);
    },
  };
}

/**
 * A document not yet prepared and longer than this (about twenty fields) is heavy. Shorter
 * ones cost well under a millisecond to prepare or refuse: sent to the lane, a client's
 * ordinary new or mistyped queries would only queue there, and past its bound get 503s.
 */
export const HEAVY_DOCUMENT_CHARS = 1024;

/**
 * The `preValidation` hook that weighs a `/graphql` request (after its body is parsed,
 * before the heavy lane's `preHandler`): a long document not yet prepared costs its parse,
 * validation and compilation (tens to hundreds of milliseconds for 100 fields), so the
 * request is marked heavy and takes the lane. A prepared one costs one cache lookup, whose
 * answer is kept on the request for the handler. The query is read where either adapter
 * reads it: a JSON object body, an `application/graphql` body, or GET's `query=`. A
 * request without a query text (an array body: batches are refused) is not weighed.
 *
 * @example
 * scope.addHook("preValidation", weighGraphqlRequest(pipeline));
 */
export function weighGraphqlRequest(pipeline: Pipeline) {
  return function weighGraphql(
    request: FastifyRequest,
    _reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ): void {
    const body = request.body;
    // The app's query values (core/query.ts): each name's values, in order. A fastify with
    // its default parser (some tests) has a plain object: its GETs are not weighed.
    const search = request.query instanceof Map ? (request.query as QueryValues) : undefined;
    let query: unknown;
    let operationName: unknown;
    if (typeof body === "object" && body !== null && !Array.isArray(body)) {
      ({ query, operationName } = body as Record<string, unknown>);
    } else {
      query = typeof body === "string" ? body : search?.get("query")?.[0];
      // As yoga's parameters are read from the URL (http-errors.ts): empty is absent.
      operationName = search?.get("operationName")?.[0] || undefined;
    }
    if (typeof query === "string" && query !== "") {
      const found = pipeline.lookup(
        query,
        typeof operationName === "string" ? operationName : undefined,
      );
      request.graphqlPrepared = found;
      if (found === undefined && query.length > HEAVY_DOCUMENT_CHARS) request.heavy = true;
    }
    done();
  };
}
