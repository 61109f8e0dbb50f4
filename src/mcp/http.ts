/**
 * MCP over Streamable HTTP at `POST /mcp`, stateless: no session, so any replica can
 * answer any request. Behind the same access layer as every route (the key before
 * anything is read; one quota unit per tool call), and answered through fastify's own
 * reply, so the request log line, metrics and security headers are those of REST. The
 * SDK is imported on the first `/mcp` request: a process that never serves MCP never
 * loads it (several MB of heap).
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import type { AccessControl } from "../access/control.js";
import { overBudget, type Spent } from "../core/budget.js";
import type { Runner } from "../core/runner.js";
import { sendError } from "../http/errors.js";
import type { AnyOperation } from "../kit/define.js";
import { createMcpTools } from "./tools.js";

export const MCP_PATH = "/mcp";

/** The request headers the SDK's transport reads. */
const FORWARDED_HEADERS = ["accept", "content-type", "mcp-protocol-version", "mcp-session-id"];

/** The SDK's parts a request needs, imported once, on first use. */
interface Sdk {
  mcpServer: typeof import("./server.js").mcpServer;
  Transport: typeof import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js").WebStandardStreamableHTTPServerTransport;
}

let sdk: Promise<Sdk> | undefined;

function loadSdk(): Promise<Sdk> {
  sdk ??= Promise.all([
    import("./server.js"),
    import("@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js"),
  ]).then(
    ([server, transport]) => ({
      mcpServer: server.mcpServer,
      Transport: transport.WebStandardStreamableHTTPServerTransport,
    }),
    (error: unknown) => {
      sdk = undefined; // the next request tries again
      throw error;
    },
  );
  return sdk;
}

/** How many `tools/call` messages a JSON-RPC body (one message or a batch) holds. */
export function toolCallsIn(body: unknown): number {
  const messages = Array.isArray(body) ? body : [body];
  let calls = 0;
  for (const message of messages) {
    if (
      typeof message === "object" &&
      message !== null &&
      (message as { method?: unknown }).method === "tools/call"
    ) {
      calls += 1;
    }
  }
  return calls;
}

function webRequest(request: FastifyRequest): Request {
  const headers = new Headers();
  for (const name of FORWARDED_HEADERS) {
    const value = request.headers[name];
    if (typeof value === "string") headers.set(name, value);
  }
  return new Request(`http://${request.hostname || "localhost"}${MCP_PATH}`, {
    method: "POST",
    headers,
  });
}

/**
 * Registers `POST /mcp` for `operations`, each tool call run by `run` (the gateway's
 * observed runner). Other methods get the service's 405: without sessions there is no
 * stream to open (GET) or end (DELETE).
 *
 * @example
 * registerMcp(app, operations, access, countingRunner(metrics, "mcp"));
 */
export function registerMcp(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  access: AccessControl,
  run: Runner,
): void {
  const tools = createMcpTools(operations, run, (error) =>
    app.log.error({ err: error }, "unexpected fault"),
  );

  /** Why a batch's calls together are over the request budget, or undefined. */
  function batchOverBudget(messages: unknown[]): string | undefined {
    const spent: Spent = { work: 0, bytes: 0 };
    for (const message of messages) {
      if ((message as { method?: unknown })?.method !== "tools/call") continue;
      const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
      const cost = tools.costOf(params?.name, params?.arguments);
      if (cost === undefined) continue;
      spent.work += cost.work;
      spent.bytes += cost.bytes;
    }
    const reason = overBudget(spent);
    return reason === undefined ? undefined : `the batch's tool calls together: ${reason}`;
  }

  async function chargeToolCalls(request: FastifyRequest, reply: FastifyReply) {
    const units = toolCallsIn(request.body);
    if (units === 0) return;
    // A batch is one request: its calls share one budget, as a GraphQL document's fields do.
    const overBatch = units > 1 ? batchOverBudget(request.body as unknown[]) : undefined;
    if (overBatch !== undefined) {
      return reply
        .code(400)
        .type("application/json; charset=utf-8")
        .send({
          jsonrpc: "2.0",
          id: null,
          error: { code: -32600, message: `Invalid Request: ${overBatch}` },
        });
    }
    const state = await access.charge(request, reply, units);
    if (state && !state.allowed) {
      return sendError(
        reply,
        429,
        `Too many requests: this API key is limited to ${state.policy.limit} calculations per ${state.policy.windowSeconds} seconds; this request asks for ${units}; retry in ${state.resetSeconds} seconds`,
      );
    }
  }

  app.post(
    MCP_PATH,
    { onRequest: access.authenticateOnly, preHandler: chargeToolCalls },
    async (request, reply) => {
      const { mcpServer, Transport } = await loadSdk();
      // Stateless: the SDK wants a fresh server and transport for every request.
      const server = mcpServer(tools);
      const transport = new Transport({
        sessionIdGenerator: undefined,
        enableJsonResponse: true,
      });
      try {
        await server.connect(transport);
        const response = await transport.handleRequest(webRequest(request), {
          parsedBody: request.body,
        });
        reply.code(response.status);
        for (const [name, value] of response.headers) reply.header(name, value);
        const text = await response.text();
        return reply.send(text.length > 0 ? text : undefined);
      } finally {
        await server.close();
      }
    },
  );
}
