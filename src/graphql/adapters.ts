/**
 * The two HTTP adapters of `/graphql`. Both hand a request's parameters and its context to
 * the one pipeline (pipeline.ts) and write what it returns; neither parses, validates,
 * limits, charges, executes or masks anything itself.
 *
 * - The shortcut, for the usual request: `POST` with a JSON object body of plainly
 *   well-formed parameters, answered as `application/json`. It skips yoga's Fetch-API
 *   emulation (a Request and a Response object, headers, hook chains) and answers in the
 *   same tick when nothing on the way is asynchronous. A result with errors is written by
 *   yoga's own result processor, so its status and headers are yoga's.
 * - Yoga, for everything else (GET, `application/graphql`, other `Accept` media types,
 *   malformed parameters): it reads and checks the parameters and negotiates the answer as
 *   always, and {@link usePipeline} makes the pipeline its parameter handler. Yoga is
 *   loaded by the first request that needs it (register.ts): a process that only answers
 *   the shortcut's requests never holds it (about 7 MB).
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ExecutionResult } from "graphql";
import type {
  OnParamsEventPayload,
  Plugin,
  processRegularResult,
  YogaServerInstance,
} from "graphql-yoga";
import { isJson } from "./http-errors.js";
import {
  type GraphqlParams,
  type GraphqlResult,
  isPromise,
  type Pipeline,
  type RequestContext,
} from "./pipeline.js";

const JSON_ANSWER_HEADERS = Object.freeze({ "content-type": "application/json; charset=utf-8" });

/** Body keys the shortcut takes; any other (even null) is left to yoga to judge. */
const SHORTCUT_KEYS = new Set(["query", "variables", "operationName", "extensions"]);

const isObjectOrNull = (value: unknown) =>
  value == null || (typeof value === "object" && !Array.isArray(value));

/**
 * The parameters of a request the shortcut takes, or undefined: the request goes to yoga,
 * which answers it (and refuses malformed parameters) as it always has.
 *
 * @example
 * shortcutParams(request); // the body itself, e.g. { query: "{ … }", variables: { n: 2 } }
 */
export function shortcutParams(request: FastifyRequest): GraphqlParams | undefined {
  if (request.method !== "POST") return undefined;
  if (!isJson(request.headers["content-type"])) return undefined;
  // With no Accept, `*/*` or `application/json`, yoga answers `application/json`.
  const accept = request.headers.accept;
  if (accept !== undefined && accept !== "*/*" && accept !== "application/json") return undefined;
  const body = request.body;
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  for (const key of Object.keys(body)) if (!SHORTCUT_KEYS.has(key)) return undefined;
  const { query, variables, operationName, extensions } = body as Record<string, unknown>;
  if (typeof query !== "string" || !isObjectOrNull(variables) || !isObjectOrNull(extensions)) {
    return undefined;
  }
  if (operationName != null && typeof operationName !== "string") return undefined;
  return body as GraphqlParams;
}

/** Yoga once loaded: its server, and the result processor it writes answers with. */
export interface LoadedYoga {
  server: YogaServerInstance<RequestContext, object>;
  processRegularResult: typeof processRegularResult;
}

/** Yoga, loaded on first use (the same promise every time once it has loaded). */
export type YogaLoader = () => Promise<LoadedYoga>;

/** A result with errors becomes an answer exactly as yoga makes it. */
async function sendWithErrors(
  reply: FastifyReply,
  result: ExecutionResult,
  loadYoga: YogaLoader,
): Promise<FastifyReply> {
  const yoga = await loadYoga();
  const response = await yoga.processRegularResult(
    result,
    yoga.server.fetchAPI,
    "application/json",
  );
  reply.status(response.status);
  for (const [name, value] of response.headers) reply.header(name, value);
  return reply.send(await response.text());
}

function send(reply: FastifyReply, result: GraphqlResult, loadYoga: YogaLoader) {
  if (result.errors?.length || !result.stringify) return sendWithErrors(reply, result, loadYoga);
  return reply.status(200).headers(JSON_ANSWER_HEADERS).send(result.stringify(result));
}

/**
 * Creates the shortcut. It answers undefined, at once, for a request it leaves to yoga;
 * otherwise it sends the answer, in the same tick when the pipeline's result is ready.
 *
 * @example
 * const shortcut = createShortcut(pipeline, loadYoga);
 * if (shortcut(request, reply) === undefined) return viaYoga(request, reply);
 */
export function createShortcut(pipeline: Pipeline, loadYoga: YogaLoader) {
  const sendResult = (reply: FastifyReply) => (result: GraphqlResult) =>
    send(reply, result, loadYoga);
  return function shortcut(
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastifyReply | Promise<FastifyReply> | undefined {
    const params = shortcutParams(request);
    if (!params) return undefined;
    // The same context yoga hands the pipeline: its server context.
    const result = pipeline.run(params, { req: request, reply });
    return isPromise(result) ? result.then(sendResult(reply)) : send(reply, result, loadYoga);
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
    pipeline.run(params as GraphqlParams, context);
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
