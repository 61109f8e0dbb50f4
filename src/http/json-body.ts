/**
 * JSON request bodies, bounded in depth before they are parsed. A 1 MiB body can nest
 * arrays 500,000 deep: `JSON.parse` builds every one of them (hundreds of milliseconds and
 * tens of megabytes) before anything can look at it. Nothing this service takes nests deeper
 * than a few levels, so bodies deeper than {@link MAX_JSON_DEPTH} are refused with a 400
 * after one pass over their characters.
 */
import type { FastifyError, FastifyRequest } from "fastify";

/** How deep arrays and objects may nest in a JSON body. */
export const MAX_JSON_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;

/**
 * Whether `text`'s arrays and objects nest deeper than `max`, counted outside strings.
 * Malformed JSON is left to the parser, which refuses it with its own message.
 *
 * @example
 * jsonDepthOver('{"a":[[1]]}', 2); // true: three levels
 */
export function jsonDepthOver(text: string, max: number): boolean {
  let depth = 0;
  let inString = false;
  for (let index = 0; index < text.length; index++) {
    const code = text.charCodeAt(index);
    if (inString) {
      if (code === BACKSLASH) index++;
      else if (code === QUOTE) inString = false;
    } else if (code === QUOTE) {
      inString = true;
    } else if (code === 0x5b /* [ */ || code === 0x7b /* { */) {
      if (++depth > max) return true;
    } else if (code === 0x5d /* ] */ || code === 0x7d /* } */) {
      depth--;
    }
  }
  return false;
}

type Done = (error: Error | null, body?: unknown) => void;
type StringParser = (request: FastifyRequest, body: string, done: Done) => void;

/**
 * `parse` (a fastify string body parser) behind the depth check; the refusal is a 400
 * with code `UCS_JSON_TOO_DEEP`, answered in each route's own error shape.
 *
 * @example
 * app.addContentTypeParser("application/json", { parseAs: "string" },
 *   depthBounded(app.getDefaultJsonParser("error", "error")));
 */
export function depthBounded(parse: StringParser): StringParser {
  return (request, body, done) => {
    if (jsonDepthOver(body, MAX_JSON_DEPTH)) {
      const error = new Error(
        `The request body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep.`,
      ) as FastifyError;
      error.statusCode = 400;
      (error as { code: string }).code = "UCS_JSON_TOO_DEEP";
      done(error);
      return;
    }
    parse(request, body, done);
  };
}
