/**
 * The shortcut for the usual GraphQL request: `POST /graphql` with a JSON object body,
 * answered as `application/json`. Such a request skips only yoga's Fetch-API emulation of
 * the HTTP exchange (a Request built from fastify's, a Response copied back to it); its
 * parameters go straight to yoga's own `getResultForParams`, which runs the one plugin
 * chain every request runs (parameter checks, text limits, parse and validation caches,
 * the service's rules, budget, quota, graphql-jit, error masking), and its result is
 * written by yoga's own `processRegularResult`, the processor yoga picks for such an
 * Accept. So there is one definition of how a request runs; every other request (GET,
 * other media types, batches, bodies that are not objects) goes through yoga whole.
 */
import type { FastifyReply, FastifyRequest } from "fastify";
import type { ExecutionResult } from "graphql";
import {
  type GraphQLParams,
  isPromise,
  processRegularResult,
  type YogaServerInstance,
} from "graphql-yoga";

/** What the shortcut answers: a status, headers and a JSON body. */
export interface FastAnswer {
  status: number;
  headers: Record<string, string>;
  body: string;
}

/** The server context yoga's plugins and the resolvers see, on both routes. */
export interface ServerContext {
  req: FastifyRequest;
  reply: FastifyReply;
}

type Yoga = Pick<
  YogaServerInstance<ServerContext, object>,
  "fetchAPI" | "getResultForParams" | "handleNodeRequestAndResponse"
>;

const JSON_ANSWER_HEADERS = Object.freeze({ "content-type": "application/json; charset=utf-8" });

/**
 * Stands for the HTTP request in yoga's plugins, which read only its method (yoga's
 * refusal of mutations over GET); resolvers and the service's plugins use `req`.
 */
const POST_REQUEST = new Request("http://localhost/graphql", { method: "POST" });

/**
 * The parameters of a request the shortcut takes, or undefined.
 *
 * @example
 * shortcutParams(request); // { query: "{ … }" } for a JSON POST accepting application/json
 */
export function shortcutParams(request: FastifyRequest): GraphQLParams | undefined {
  if (request.method !== "POST") return undefined;
  const contentType = request.headers["content-type"];
  if (typeof contentType !== "string" || !/^application\/json\s*(;|$)/i.test(contentType)) {
    return undefined;
  }
  // With no Accept, `*/*` or `application/json`, yoga answers `application/json`.
  const accept = request.headers.accept;
  if (accept !== undefined && accept !== "*/*" && accept !== "application/json") return undefined;
  const body = request.body;
  // Other bodies get yoga's request parser's refusal (see http-errors.ts).
  if (typeof body !== "object" || body === null || Array.isArray(body)) return undefined;
  if ((body as { query?: unknown }).query == null) return undefined;
  // Checked by yoga's own parameter plugin, as for every request.
  return body as GraphQLParams;
}

function answerOf(
  result: ExecutionResult,
  fetchAPI: Yoga["fetchAPI"],
): FastAnswer | Promise<FastAnswer> {
  // A result with neither errors nor extensions is written as the processor writes it
  // (200, the JSON by the compiled query's own stringify when graphql-jit left one), here
  // without building a Response to read back.
  if (!result.errors?.length && result.extensions === undefined) {
    const { stringify } = result as { stringify?: (value: ExecutionResult) => string };
    return {
      status: 200,
      headers: JSON_ANSWER_HEADERS,
      body: stringify ? stringify(result) : JSON.stringify(result),
    };
  }
  const response = processRegularResult(result, fetchAPI, "application/json");
  const headers: Record<string, string> = {};
  for (const [name, value] of response.headers) headers[name] = value;
  return response.text().then((body) => ({ status: response.status, headers, body }));
}

/**
 * Creates the shortcut. It answers `undefined` for requests left to yoga whole: at once for
 * those it does not take, and (resolved) for one a parameter hook refused by throwing, which
 * yoga's handler turns into its answer (those hooks run before anything else, so nothing
 * has run twice). Otherwise the answer, synchronous when nothing on the way is asynchronous.
 *
 * @example
 * const shortcut = createFastPath(yoga);
 * const answer = await shortcut(request, reply);
 * if (answer) reply.status(answer.status).headers(answer.headers).send(answer.body);
 */
export function createFastPath(yoga: Yoga) {
  const { fetchAPI } = yoga;
  const answer = (result: unknown) => answerOf(result as ExecutionResult, fetchAPI);
  const toYoga = () => undefined;
  return function fastPath(
    request: FastifyRequest,
    reply: FastifyReply,
  ): FastAnswer | Promise<FastAnswer | undefined> | undefined {
    const params = shortcutParams(request);
    if (!params) return undefined;
    // The same context yoga builds from the server context: the object keys the
    // request's problem and list-item budgets.
    const context: ServerContext = { req: request, reply };
    let result: ReturnType<Yoga["getResultForParams"]>;
    try {
      result = yoga.getResultForParams({ params, request: POST_REQUEST }, context);
    } catch {
      return Promise.resolve(undefined);
    }
    return isPromise(result) ? result.then(answer, toYoga) : answer(result);
  };
}
