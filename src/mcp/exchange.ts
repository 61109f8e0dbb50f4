/**
 * Stateless Streamable HTTP (JSON responses) for one long-lived MCP server. The SDK's own
 * transport for this wants a fresh server and transport per HTTP request, the costliest
 * part of an MCP call in CPU and memory (docs/mcp.md); here one server, built once,
 * answers every request through {@link Exchange}, and {@link frame} frames each request
 * as the SDK's transport does: the same checks, statuses and JSON-RPC errors.
 * Loaded with the SDK on the first `/mcp` request (see http.ts).
 */
import type { Server } from "@modelcontextprotocol/sdk/server/index.js";
import { isJsonContentType } from "@modelcontextprotocol/sdk/shared/mediaType.js";
import type { Transport } from "@modelcontextprotocol/sdk/shared/transport.js";
import {
  isInitializeRequest,
  type JSONRPCMessage,
  JSONRPCMessageSchema,
  type JSONRPCRequest,
  type RequestId,
  SUPPORTED_PROTOCOL_VERSIONS,
} from "@modelcontextprotocol/sdk/types.js";
import { sdkRequestHandler } from "../runtime/internals.js";
import {
  INTERNAL_ERROR,
  INVALID_REQUEST,
  type McpAnswer,
  mcpError,
  PARSE_ERROR,
  rpcError,
  TRANSPORT_ERROR,
} from "./errors.js";
import { mcpServer } from "./server.js";
import type { McpTools } from "./tools.js";

/** The SDK transport's bound on one JSON-RPC batch (`MAX_BATCH_SIZE` in its requestBody.js). */
export const MAX_BATCH_SIZE = 100;

export type { McpAnswer } from "./errors.js";

/**
 * The protocol version of a request without `MCP-Protocol-Version`: the transport spec
 * says to assume 2025-03-26, the last revision before the header existed.
 */
export const DEFAULT_PROTOCOL_VERSION = "2025-03-26";

/** The first revision without JSON-RPC batches (2025-06-18 removed them). */
const FIRST_WITHOUT_BATCHES = "2025-06-18";

/** The request headers the framing reads. */
export interface McpHeaders {
  accept?: string | undefined;
  "content-type"?: string | undefined;
  "mcp-protocol-version"?: string | string[] | undefined;
}

/** A request's response on its way back: the client's own id, and whom to hand it to. */
interface Pending {
  id: RequestId;
  resolve: (message: JSONRPCMessage) => void;
  /** When it is given up (`Date.now()`): see {@link RESPONSE_TIMEOUT_MS}. */
  deadline: number;
}

/**
 * How long a request waits for the server's response. The tools answer within the same
 * turn of the event loop; this only bounds what a response the SDK never sends would
 * hold (the request, its parsed body, an open connection).
 */
export const RESPONSE_TIMEOUT_MS = 10_000;

/**
 * How often waiting requests are checked against their deadlines: one timer for all of
 * them, running only while some wait, rather than a timer for every request.
 */
const SWEEP_MS = 1_000;

/** The answer to a request the server did not respond to in time. */
function noResponse(id: RequestId): JSONRPCMessage {
  return rpcError(
    id,
    INTERNAL_ERROR,
    "Internal error: the server did not respond to this request",
  ) as JSONRPCMessage;
}

/**
 * Only `notifications/initialized` reaches the server. A client's `notifications/cancelled`
 * names its own request ids, which mean nothing to a server shared by every client; passed
 * on, it cancelled whichever request held that id, whose response the SDK then never sent
 * (the HTTP request hung for good: an outside attack held 1,024 connections so, and another
 * kept ~25 MB per hung request until the heap ran out). The tools answer at once, so there
 * is nothing of a client's own to cancel; progress and roots notifications concern requests
 * and capabilities a stateless server does not have.
 */
function forwarded(message: JSONRPCMessage): boolean {
  return "method" in message && message.method === "notifications/initialized";
}

/**
 * An `initialize` as the shared server keeps it: without the client's capabilities, which
 * the tools never read and which would stay in memory, overwritten only by the next client's
 * `initialize` (a 1 MB `capabilities.experimental` held ~21 MB of heap). Capabilities that
 * are not an object are left for the server to refuse.
 */
function withoutCapabilities(message: JSONRPCMessage & { id: RequestId }): JSONRPCMessage {
  const params = (message as { params?: unknown }).params;
  if (typeof params !== "object" || params === null) return message;
  const capabilities = (params as { capabilities?: unknown }).capabilities;
  if (typeof capabilities !== "object" || capabilities === null || Array.isArray(capabilities)) {
    return message;
  }
  return { ...message, params: { ...params, capabilities: {} } } as JSONRPCMessage;
}

/**
 * The server's one transport. Each HTTP request's messages go in with ids unique in the
 * process (clients all number their requests from 1), and each response goes back to the
 * request that asked, with the client's id restored.
 */
export class Exchange implements Transport {
  onmessage?: Transport["onmessage"];
  onclose?: () => void;
  onerror?: (error: Error) => void;
  private lastId = 0;
  private readonly pending = new Map<number, Pending>();
  private sweeping: NodeJS.Timeout | undefined = undefined;
  /** The server's own handling of a request, once {@link serve} found it; see there. */
  private handle: ((request: JSONRPCRequest) => void) | undefined = undefined;

  async start(): Promise<void> {}

  async close(): Promise<void> {
    this.onclose?.();
  }

  async send(message: JSONRPCMessage): Promise<void> {
    // Only responses come back: these tools send no requests or notifications of their own.
    if (!("id" in message) || "method" in message || typeof message.id !== "number") return;
    const pending = this.pending.get(message.id);
    if (pending === undefined) return;
    this.pending.delete(message.id);
    // The server's response is its own object, made for this request: given the client's id.
    (message as { id: RequestId }).id = pending.id;
    pending.resolve(message);
  }

  /**
   * Hands `message` (a request) to the server; resolves with its response, or with an
   * internal error after {@link RESPONSE_TIMEOUT_MS} if none comes.
   */
  request(message: JSONRPCMessage & { id: RequestId }): Promise<JSONRPCMessage> {
    const id = ++this.lastId;
    const sent =
      (message as { method?: unknown }).method === "initialize"
        ? withoutCapabilities(message)
        : message;
    return new Promise((resolve) => {
      this.pending.set(id, { id: message.id, resolve, deadline: Date.now() + RESPONSE_TIMEOUT_MS });
      if (this.sweeping === undefined) {
        this.sweeping = setInterval(() => this.expireOverdue(), SWEEP_MS);
        this.sweeping.unref();
      }
      const inner = { ...sent, id } as JSONRPCRequest;
      if (this.handle !== undefined) this.handle(inner);
      else this.onmessage?.(inner);
    });
  }

  /**
   * Hands each request to `server`'s request handling, past the message sorting the SDK
   * does on `onmessage`: three zod parses, two of them failing on every request (~9 µs of
   * a call). {@link frame} already sorted it with the SDK's own schema (or the plain check
   * that accepts exactly what that schema does); the server still answers it: its handler
   * lookup, its checks of params and result, its errors. Without that method (another
   * SDK), requests go through `onmessage` as before.
   */
  serve(server: Server): void {
    this.handle = sdkRequestHandler<JSONRPCRequest>(server);
  }

  /** Answers the requests past their deadline; stops sweeping once none waits. */
  private expireOverdue(): void {
    const now = Date.now();
    // In the order they were handed over, so in the order of their deadlines.
    for (const [id, pending] of this.pending) {
      if (pending.deadline > now) break;
      this.pending.delete(id);
      pending.resolve(noResponse(pending.id));
    }
    if (this.pending.size === 0) {
      clearInterval(this.sweeping);
      this.sweeping = undefined;
    }
  }

  /** Hands a notification (or a client's response) to the server, if it is one it may see. */
  notify(message: JSONRPCMessage): void {
    if (forwarded(message)) this.onmessage?.(message);
  }

  /** Requests waiting for the server's response (tests). */
  get waiting(): number {
    return this.pending.size;
  }
}

/**
 * Whether `item` is a request that `JSONRPCMessageSchema` certainly accepts, as it is: only
 * `jsonrpc: "2.0"`, a string or integer `id`, a string `method` and, if any, `params` that
 * are an object without `_meta` (whose shape the schema checks). Anything else goes to the
 * schema. Checking the common call by hand spares a zod union's parse on every request.
 */
function isPlainRequest(item: unknown): boolean {
  if (typeof item !== "object" || item === null || Array.isArray(item)) return false;
  for (const key in item) {
    if (key !== "jsonrpc" && key !== "id" && key !== "method" && key !== "params") return false;
  }
  const { jsonrpc, id, method, params } = item as Record<string, unknown>;
  if (jsonrpc !== "2.0" || typeof method !== "string") return false;
  // The schema's integer ids are safe integers: 2^60 is refused, as the SDK's transport does.
  if (typeof id !== "string" && !Number.isSafeInteger(id)) return false;
  if (params === undefined) return !("params" in item);
  return (
    typeof params === "object" && params !== null && !Array.isArray(params) && !("_meta" in params)
  );
}

/** Whether a framed message is a request: notifications have no id, responses no method. */
function isRequest(
  message: JSONRPCMessage,
): message is JSONRPCMessage & { id: RequestId; method: string } {
  return "method" in message && "id" in message;
}

/**
 * Frames one `POST /mcp` whose body fastify has parsed, as the SDK's stateless transport
 * with JSON responses would: 406 without both media types in `Accept`, 415 for a body that
 * is not JSON, 400 for a batch over {@link MAX_BATCH_SIZE} messages, a message that is
 * not JSON-RPC, an initialization in a batch, an invalid or unsupported
 * `MCP-Protocol-Version` (absent: {@link DEFAULT_PROTOCOL_VERSION}), or a batch under a
 * version that has none.
 * Returns that refusal, or the request's messages, which nothing has handled yet: the
 * caller charges them before {@link dispatch} runs them.
 */
export function frame(headers: McpHeaders, body: unknown): JSONRPCMessage[] | McpAnswer {
  const accept = headers.accept;
  if (!accept?.includes("application/json") || !accept.includes("text/event-stream")) {
    return mcpError(
      406,
      TRANSPORT_ERROR,
      "Not Acceptable: Client must accept both application/json and text/event-stream",
    );
  }
  const type = headers["content-type"];
  if (type !== "application/json" && !isJsonContentType(type)) {
    return mcpError(
      415,
      TRANSPORT_ERROR,
      "Unsupported Media Type: Content-Type must be application/json",
    );
  }
  if (Array.isArray(body) && body.length > MAX_BATCH_SIZE) {
    return mcpError(
      400,
      INVALID_REQUEST,
      `Invalid Request: Batch must not exceed ${MAX_BATCH_SIZE} messages`,
    );
  }
  const raw = Array.isArray(body) ? body : [body];
  const messages: JSONRPCMessage[] = [];
  let initializing = false;
  for (const item of raw) {
    if (isPlainRequest(item)) {
      messages.push(item as JSONRPCMessage);
    } else {
      const parsed = JSONRPCMessageSchema.safeParse(item);
      if (!parsed.success) {
        return mcpError(400, PARSE_ERROR, "Parse error: Invalid JSON-RPC message");
      }
      messages.push(parsed.data);
    }
    // The schema check only for what may be one: most messages are not initializations.
    if ((item as { method?: unknown }).method === "initialize" && isInitializeRequest(item)) {
      initializing = true;
    }
  }
  if (initializing && messages.length > 1) {
    return mcpError(
      400,
      INVALID_REQUEST,
      "Invalid Request: Only one initialization request is allowed",
    );
  }
  const header = headers["mcp-protocol-version"];
  // An initialization negotiates its version in its body; the header comes after it.
  if (
    !initializing &&
    header !== undefined &&
    !SUPPORTED_PROTOCOL_VERSIONS.includes(header as string)
  ) {
    return mcpError(
      400,
      TRANSPORT_ERROR,
      `Bad Request: Unsupported protocol version: ${String(header)} (supported versions: ${SUPPORTED_PROTOCOL_VERSIONS.join(", ")})`,
    );
  }
  const version = typeof header === "string" ? header : DEFAULT_PROTOCOL_VERSION;
  if (Array.isArray(body) && version >= FIRST_WITHOUT_BATCHES) {
    return mcpError(
      400,
      INVALID_REQUEST,
      `Invalid Request: JSON-RPC batches are not part of protocol version ${version}; send one message per request`,
    );
  }
  return messages;
}

/** The key's quota after a request's charge, as `GET /v1/me` reports it. */
export interface QuotaMeta {
  limit: number;
  remaining: number;
  resetSeconds: number;
}

/** Where a tool result's `_meta` carries {@link QuotaMeta}. */
export const QUOTA_META_KEY = "ucs/quota";

/**
 * Hands framed `messages` to the server: 202 when they hold no request; else 200 with
 * the response (an array for several). With `quota`, each `tools/call` result carries it
 * in `_meta` (so an agent can pace itself without asking `/v1/me`).
 */
export async function dispatch(
  exchange: Exchange,
  messages: readonly JSONRPCMessage[],
  quota?: QuotaMeta,
): Promise<McpAnswer> {
  let responses: JSONRPCMessage[];
  const only = messages.length === 1 ? messages[0] : undefined;
  if (only !== undefined && isRequest(only)) {
    // The usual request, one call: no arrays of promises to make.
    responses = [await exchange.request(only)];
  } else {
    const answers: Promise<JSONRPCMessage>[] = [];
    for (const message of messages) {
      if (isRequest(message)) answers.push(exchange.request(message));
      else exchange.notify(message);
    }
    if (answers.length === 0) return { status: 202, body: undefined };
    responses = await Promise.all(answers);
  }
  if (quota !== undefined) {
    let index = 0;
    for (const message of messages) {
      if (!isRequest(message)) continue;
      const response = responses[index++] as { result?: Record<string, unknown> };
      if (message.method !== "tools/call" || response.result === undefined) continue;
      // Each call's result is its own object, made for this request.
      const meta = response.result._meta as Record<string, unknown> | undefined;
      response.result._meta = { ...meta, [QUOTA_META_KEY]: quota };
    }
  }
  return {
    status: 200,
    body: JSON.stringify(responses.length === 1 ? responses[0] : responses),
  };
}

/** The server for `tools`, connected once to its exchange. */
export async function connectExchange(tools: McpTools): Promise<Exchange> {
  const exchange = new Exchange();
  const server = mcpServer(tools);
  await server.connect(exchange);
  exchange.serve(server);
  return exchange;
}
