/**
 * JSON request bodies, bounded in shape before they are parsed. `JSON.parse` builds every
 * value of a body before anything can look at it: a 1 MiB body can nest arrays 500,000
 * deep (hundreds of milliseconds and tens of megabytes), or hold 330,000 empty objects
 * (~100 ms and ~25 MB). Nothing this service takes nests deeper than a few levels or holds
 * more than one request's 10,000 list items, so a body deeper than {@link MAX_JSON_DEPTH}
 * or with more than {@link MAX_JSON_VALUES} values is refused with a 400 after one pass
 * over its characters.
 */
import type { FastifyError, FastifyInstance, FastifyRequest } from "fastify";
import { MAX_LIST_ITEMS_PER_REQUEST } from "../core/budget.js";

/** How deep arrays and objects may nest in a JSON body. */
export const MAX_JSON_DEPTH = 64;

/**
 * Values a JSON body may hold: list items and object members, counted by the commas and
 * brackets between them. Twice one request's list items, for the fields, arguments
 * and messages around them.
 */
export const MAX_JSON_VALUES = 2 * MAX_LIST_ITEMS_PER_REQUEST;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/** What is wrong with a body's shape, if anything. */
export type JsonShapeProblem = "deep" | "many" | undefined;

/**
 * Whether `text`'s arrays and objects nest deeper than `maxDepth`, or it holds more than
 * `maxValues` values (each `,`, `[` and `{` outside strings counts one), else undefined.
 * Malformed JSON is left to the parser, which refuses it with its own message.
 *
 * @example
 * jsonShapeProblem('{"a":[[1]]}', 2, 100); // "deep": three levels
 * jsonShapeProblem("[1,2,3]", 64, 2); // "many"
 */
export function jsonShapeProblem(
  text: string,
  maxDepth: number,
  maxValues: number,
): JsonShapeProblem {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === 0x2c /* , */) {
      if (++values > maxValues) return "many";
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      if (++depth > maxDepth) return "deep";
      if (++values > maxValues) return "many";
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth--;
    }
  }
  return undefined;
}

type Done = (error: Error | null, body?: unknown) => void;
type StringParser = (request: FastifyRequest, body: string, done: Done) => void;

const REFUSALS = {
  deep: {
    code: "UCS_JSON_TOO_DEEP",
    message: (what: string) =>
      `${what} nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
  },
  many: {
    code: "UCS_JSON_TOO_MANY_VALUES",
    message: (what: string) =>
      `${what} holds more than ${MAX_JSON_VALUES} values (list items and object members); one request may send at most ${MAX_LIST_ITEMS_PER_REQUEST} list items.`,
  },
} as const;

/**
 * Why JSON `text` is refused unread (too deep, too many values), as a code and a message
 * about `what` ("The request body"), or undefined when its shape is within the bounds.
 *
 * @example
 * jsonShapeRefusal("[".repeat(65) + "]".repeat(65), "The body")?.code; // "UCS_JSON_TOO_DEEP"
 */
export function jsonShapeRefusal(
  text: string,
  what: string,
): { code: string; message: string } | undefined {
  const problem = jsonShapeProblem(text, MAX_JSON_DEPTH, MAX_JSON_VALUES);
  if (problem === undefined) return undefined;
  return { code: REFUSALS[problem].code, message: REFUSALS[problem].message(what) };
}

/**
 * Makes `instance` parse JSON bodies behind the shape check: fastify's own parser, with
 * `onPoisoning` for `__proto__` and `constructor` keys; a refusal is a 400 with code
 * `UCS_JSON_TOO_DEEP` or `UCS_JSON_TOO_MANY_VALUES`, answered in each route's own error shape.
 *
 * @example
 * boundJsonBodies(app, "error");
 */
export function boundJsonBodies(instance: FastifyInstance, onPoisoning: "error" | "ignore"): void {
  instance.removeContentTypeParser("application/json");
  instance.addContentTypeParser(
    "application/json",
    { parseAs: "string" },
    shapeBounded(instance.getDefaultJsonParser(onPoisoning, onPoisoning)),
  );
}

/** `parse` (a fastify string body parser) behind the shape check. */
function shapeBounded(parse: StringParser): StringParser {
  return (request, body, done) => {
    const refusal = jsonShapeRefusal(body, "The request body");
    if (refusal !== undefined) {
      const error = new Error(refusal.message) as FastifyError;
      error.statusCode = 400;
      (error as { code: string }).code = refusal.code;
      done(error);
      return;
    }
    parse(request, body, done);
  };
}
