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
import type { Exchange } from "./exchange.js";
import { createMcpTools } from "./tools.js";

export const MCP_PATH = "/mcp";

/** What answers `/mcp`: the framing, and the one server's exchange. */
interface Mcp {
  answerPost: typeof import("./exchange.js").answerPost;
  exchange: Exchange;
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
  // The SDK is imported, and one server for these tools connected, on the first request.
  let mcp: Promise<Mcp> | undefined;
  const ready = (): Promise<Mcp> => {
    if (mcp === undefined) {
      mcp = import("./exchange.js").then(async ({ answerPost, connectExchange }) => ({
        answerPost,
        exchange: await connectExchange(tools),
      }));
      mcp.catch(() => {
        mcp = undefined; // the next request tries again
      });
    }
    return mcp;
  };

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
      const { answerPost, exchange } = await ready();
      const answer = await answerPost(exchange, request.headers, request.body);
      reply.code(answer.status);
      if (answer.body === undefined) return reply.send();
      return reply.type("application/json").send(answer.body);
    },
  );
}
