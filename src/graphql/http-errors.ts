/**
 * Every answer of `/graphql` past the API key is a GraphQL response: `{"errors":[{message,
 * extensions:{code}}]}`, also when the request is refused before GraphQL sees it (a body
 * fastify cannot parse, too large, of a media type nobody reads). Yoga writes the errors
 * it raises itself; this module writes the rest in the same shape, and turns the malformed
 * requests yoga would answer badly (a 500 for invalid `variables` JSON, an empty 415) into
 * errors yoga writes. The access layer's 401 and 429 keep the service-wide `{"detail"}`.
 */
import type { FastifyError, FastifyReply, FastifyRequest } from "fastify";
import { GraphQLError } from "graphql";
import type { Plugin } from "graphql-yoga";
import type { QueryValues } from "../core/query.js";
import { jsonShapeRefusal } from "../http/json-body.js";
import { http } from "../http/node-http.js";

const { STATUS_CODES } = http;

/** `extensions.code` of a refusal, by HTTP status. */
const CODE_BY_STATUS: Readonly<Record<number, string>> = {
  400: "BAD_REQUEST",
  406: "NOT_ACCEPTABLE",
  408: "REQUEST_TIMEOUT",
  413: "PAYLOAD_TOO_LARGE",
  415: "UNSUPPORTED_MEDIA_TYPE",
};

const codeFor = (status: number) =>
  CODE_BY_STATUS[status] ?? (status >= 500 ? "INTERNAL_SERVER_ERROR" : "BAD_REQUEST");

const UNSUPPORTED_MEDIA_TYPE =
  'Unsupported media type: send the request as application/json ({"query": …}) or application/graphql, or use GET.';

const NOT_ACCEPTABLE =
  "Not acceptable: this endpoint answers application/json or application/graphql-response+json.";

/**
 * The JSON text of a GraphQL response holding one error.
 *
 * @example
 * graphqlErrorBody("The request body is not valid JSON.", "BAD_REQUEST");
 * // '{"errors":[{"message":"The request body is not valid JSON.","extensions":{"code":"BAD_REQUEST"}}]}'
 */
export function graphqlErrorBody(message: string, code: string): string {
  return JSON.stringify({ errors: [{ message, extensions: { code } }] });
}

/** Sends one GraphQL error with `status`, as `application/json`. */
export function sendGraphqlError(
  reply: FastifyReply,
  status: number,
  message: string,
  code = codeFor(status),
): FastifyReply {
  return reply
    .code(status)
    .type("application/json; charset=utf-8")
    .send(graphqlErrorBody(message, code));
}

/** What a client is told about a request refused before GraphQL, by fastify's error code. */
function refusalMessage(error: FastifyError, request: FastifyRequest): string {
  switch (error.code) {
    case "FST_ERR_CTP_INVALID_JSON_BODY":
      return "The request body is not valid JSON.";
    case "FST_ERR_CTP_EMPTY_JSON_BODY":
      return 'The request body is empty: send a JSON object with a "query" string.';
    case "FST_ERR_CTP_BODY_TOO_LARGE":
      return `The request body is larger than ${request.routeOptions.bodyLimit ?? "the limit of"} bytes.`;
    case "FST_ERR_CTP_INVALID_MEDIA_TYPE":
      return UNSUPPORTED_MEDIA_TYPE;
    case "UCS_JSON_TOO_DEEP":
    case "UCS_JSON_TOO_MANY_VALUES":
      return error.message;
    default:
      // Fastify's own messages may quote internals; the status text never does.
      return STATUS_CODES[error.statusCode ?? 400] ?? "Bad Request";
  }
}

/**
 * The error handler of the `/graphql` scope: a request refused by fastify (its body) is
 * answered as a GraphQL error with fastify's 4xx status; anything else is logged and
 * answered as yoga answers an unexpected error.
 */
export function handleGraphqlError(
  error: FastifyError,
  request: FastifyRequest,
  reply: FastifyReply,
  maskedMessage: string,
): FastifyReply {
  const status = error.statusCode ?? 500;
  if (status >= 400 && status < 500) {
    return sendGraphqlError(reply, status, refusalMessage(error, request));
  }
  request.log.error({ err: error }, "unexpected fault");
  return sendGraphqlError(reply, 500, maskedMessage);
}

/**
 * The body for an error answer yoga sent without one (it answers an unsupported media type
 * 415 and an unacceptable `Accept` 406 with no body), or undefined when it has a body.
 */
export function bodyForEmptyError(status: number, body: string): string | undefined {
  if (status < 400 || body !== "") return undefined;
  const message =
    status === 406
      ? NOT_ACCEPTABLE
      : status === 415
        ? UNSUPPORTED_MEDIA_TYPE
        : (STATUS_CODES[status] ?? "Error");
  return graphqlErrorBody(message, codeFor(status));
}

function badRequest(message: string): GraphQLError {
  return new GraphQLError(message, {
    extensions: { code: "BAD_REQUEST", http: { status: 400 } },
  });
}

const NO_QUERY = badRequest(
  'The request has no "query": send the GraphQL document as the "query" parameter.',
);

/** A GET parameter given as JSON text (`variables`, `extensions`), parsed; empty is absent. */
function jsonParameter(values: QueryValues, name: string): unknown {
  const text = values.get(name)?.[0];
  if (text === undefined || text === "") return undefined;
  // Bounded as JSON bodies are, before it is parsed.
  const refusal = jsonShapeRefusal(text, `The "${name}" query parameter`);
  if (refusal !== undefined) throw badRequest(refusal.message);
  try {
    return JSON.parse(text);
  } catch {
    throw badRequest(`The "${name}" query parameter is not valid JSON.`);
  }
}

/** GraphQL parameters of a GET, from the query values fastify already parsed (strictly). */
function paramsOfQuery(values: QueryValues): Record<string, unknown> {
  const malformed = values.malformed?.[0];
  if (malformed) {
    throw badRequest(
      `The "${malformed.name}" query parameter is not valid percent-encoded UTF-8 (a '%' must be followed by two hexadecimal digits, and the bytes must be UTF-8).`,
    );
  }
  const query = values.get("query")?.[0];
  if (query === undefined || query === "") throw NO_QUERY;
  const operationName = values.get("operationName")?.[0];
  return {
    query,
    operationName: operationName === "" ? undefined : operationName,
    variables: jsonParameter(values, "variables"),
    extensions: jsonParameter(values, "extensions"),
  };
}

/** GraphQL parameters of a JSON POST: the body fastify parsed, which must be an object. */
function paramsOfJson(body: unknown): unknown {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    const kind = body === null ? "null" : Array.isArray(body) ? "an array" : typeof body;
    throw badRequest(
      `The request body must be a JSON object with a "query" string, not ${kind} (batches are not supported).`,
    );
  }
  if ((body as { query?: unknown }).query == null) throw NO_QUERY;
  return body;
}

/** Whether a request's content type is JSON (any parameters): both adapters read it alike. */
export const isJson = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/json\s*(;|$)/i.test(contentType);
const isGraphql = (contentType: string | undefined) =>
  contentType !== undefined && /^application\/graphql\s*(;|$)/i.test(contentType);

/**
 * Yoga's request parsing, replaced: parameters come from what fastify already parsed (the
 * query string, strictly decoded, and the body), so nothing is read twice, and every
 * malformed request is a 400 `BAD_REQUEST` naming what is wrong, every unreadable media
 * type a 415 `UNSUPPORTED_MEDIA_TYPE`.
 *
 * @example
 * createYoga({ schema, plugins: [useFastifyParams()] });
 */
export function useFastifyParams(): Plugin<{ req: FastifyRequest }> {
  const unsupported = () => {
    throw new GraphQLError(UNSUPPORTED_MEDIA_TYPE, {
      extensions: { code: "UNSUPPORTED_MEDIA_TYPE", http: { status: 415 } },
    });
  };
  return {
    onRequestParse({ serverContext, setRequestParser }) {
      const request = (serverContext as unknown as { req: FastifyRequest }).req;
      if (request.method === "GET") {
        setRequestParser(() => paramsOfQuery(request.query as QueryValues));
        return;
      }
      const contentType = request.headers["content-type"];
      if (isJson(contentType)) {
        setRequestParser(() => paramsOfJson(request.body) as Record<string, unknown>);
      } else if (isGraphql(contentType)) {
        setRequestParser(() => {
          if (typeof request.body !== "string" || request.body === "") throw NO_QUERY;
          return { query: request.body };
        });
      } else {
        setRequestParser(unsupported);
      }
    },
  };
}
