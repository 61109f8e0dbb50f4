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
import {
  MAX_LIST_ITEMS_PER_REQUEST,
  overBudget,
  type Spent,
  takeSentItems,
} from "../core/budget.js";
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

/** Argument names one tool call may have (an operation takes a handful of parameters). */
export const MAX_ARGUMENT_NAMES = 100;

/** A `tools/call` message's arguments when they are an object, else undefined. */
function callArguments(message: unknown): Record<string, unknown> | undefined {
  if ((message as { method?: unknown } | null)?.method !== "tools/call") return undefined;
  const args = (message as { params?: { arguments?: unknown } }).params?.arguments;
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>) : undefined;
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

  /**
   * Why a call's arguments have too many names, or undefined. No operation takes more than
   * a few parameters, and each unknown name is a problem listed in the answer: 90,000 of
   * them cost 0.6–1.1 s and answered 9.6 MB. Counted only as far as the bound.
   */
  function tooManyArgumentNames(body: unknown): string | undefined {
    for (const message of Array.isArray(body) ? body : [body]) {
      const args = callArguments(message);
      if (args === undefined) continue;
      let names = 0;
      for (const _name in args) {
        if (++names > MAX_ARGUMENT_NAMES) {
          return `a tool call's arguments have more than ${MAX_ARGUMENT_NAMES} names`;
        }
      }
    }
    return undefined;
  }

  /** Bytes of the `tools/list` answer, the same every time; writing it is ~10 ns a byte. */
  const listBytes = Buffer.byteLength(JSON.stringify(tools.list));
  const LIST_WORK_PER_BYTE = 10;

  /**
   * Why a batch's messages together are over the request's limits, or undefined: the list
   * items its calls send (counted before any is read, as GraphQL counts its fields'), then
   * what its calls declare and its `tools/list` answers take.
   */
  function batchOverBudget(messages: unknown[]): string | undefined {
    const items = { left: MAX_LIST_ITEMS_PER_REQUEST };
    for (const message of messages) {
      const args = callArguments(message);
      if (args === undefined) continue;
      for (const name in args) takeSentItems(args[name], items);
      if (items.left < 0) {
        return `the batch's tool calls together send more than ${MAX_LIST_ITEMS_PER_REQUEST} list items (object fields counted); at most ${MAX_LIST_ITEMS_PER_REQUEST} per request (as in one REST request)`;
      }
    }
    const spent: Spent = { work: 0, bytes: 0 };
    for (const message of messages) {
      const method = (message as { method?: unknown })?.method;
      if (method === "tools/list") {
        spent.bytes += listBytes;
        spent.work += listBytes * LIST_WORK_PER_BYTE;
      }
      if (method !== "tools/call") continue;
      const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
      const cost = tools.costOf(params?.name, params?.arguments);
      if (cost === undefined) continue;
      spent.work += cost.work;
      spent.bytes += cost.bytes;
    }
    const reason = overBudget(spent);
    return reason === undefined ? undefined : `the batch's messages together: ${reason}`;
  }

  async function chargeToolCalls(request: FastifyRequest, reply: FastifyReply) {
    // A batch is one request: its messages share one budget, as a GraphQL document's fields do.
    const batch = Array.isArray(request.body) && request.body.length > 1;
    const overBatch =
      tooManyArgumentNames(request.body) ??
      (batch ? batchOverBudget(request.body as unknown[]) : undefined);
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
    const units = toolCallsIn(request.body);
    if (units === 0) return;
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
