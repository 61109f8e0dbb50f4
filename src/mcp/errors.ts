/**
 * The MCP surface's one error writer: every refusal `src/mcp` answers goes through
 * {@link mcpError} (a body) and {@link sendMcp} (onto the reply), and every JSON-RPC error
 * it makes itself through {@link rpcError}. The body is the SDK
 * transport's: a JSON-RPC error with `id: null`, whatever the HTTP status. The quota's 429
 * is the one exception in shape: it is the service's shared 429 (`{"detail": …}`, the same
 * on every surface, API.md §7), written here too so that no other path of the surface
 * answers an error of its own.
 */
import type { FastifyReply } from "fastify";
import { sendError } from "../http/errors.js";

/** A request's answer: its status and JSON body (none for 202). */
export interface McpAnswer {
  status: number;
  body: string | undefined;
}

/** JSON-RPC error codes the surface answers with. */
export const INVALID_REQUEST = -32600;
export const PARSE_ERROR = -32700;
export const INTERNAL_ERROR = -32603;
/** The SDK transport's code for HTTP-level refusals (406, 415, 403, a bad protocol version). */
export const TRANSPORT_ERROR = -32000;

/** A JSON-RPC error message answering request `id` (null: a request that could not be read). */
export function rpcError(
  id: string | number | null,
  code: number,
  message: string,
): { jsonrpc: "2.0"; error: { code: number; message: string }; id: string | number | null } {
  return { jsonrpc: "2.0", error: { code, message }, id };
}

/** The answer `status` with a JSON-RPC error `code` and `message`, id null. */
export function mcpError(status: number, code: number, message: string): McpAnswer {
  return { status, body: JSON.stringify(rpcError(null, code, message)) };
}

/** Sends `answer` (a refusal of {@link mcpError}, or the server's answer). */
export function sendMcp(reply: FastifyReply, answer: McpAnswer): FastifyReply {
  reply.code(answer.status);
  if (answer.body === undefined) return reply.send();
  return reply.type("application/json").send(answer.body);
}

/** The quota's 429: the service's, as every surface answers it (headers set by the charge). */
export function sendQuotaRefusal(reply: FastifyReply, message: string): FastifyReply {
  return sendError(reply, 429, message);
}
