/**
 * A body read before fastify saw its request, handed back to fastify: a shortcut that read
 * a request's body and then leaves the request to fastify (server-shortcut.ts) records the
 * body here, and the route's `preParsing` hook gives fastify's body parser that body in
 * place of the socket's stream, which has ended.
 */
import type { IncomingMessage } from "node:http";
import { Readable } from "node:stream";
import type { preParsingHookHandler } from "fastify";

const bodies = new WeakMap<IncomingMessage, Buffer>();

/** Records `body` as what fastify reads for `request`. */
export function replayBody(request: IncomingMessage, body: Buffer): void {
  bodies.set(request, body);
}

/**
 * The `preParsing` hook: a recorded body, as the stream to parse; otherwise the request's
 * own stream.
 */
export const replayedBody: preParsingHookHandler = (request, _reply, payload, done) => {
  const body = bodies.get(request.raw);
  if (body === undefined) return done(null, payload);
  bodies.delete(request.raw);
  done(null, Readable.from([body]));
};
