/**
 * MCP over Streamable HTTP at `POST /mcp`, stateless: no session, so any replica can
 * answer any request. Behind the same access layer as every route (the key before
 * anything is read; the quota charged once the request can no longer be refused, see
 * {@link quotaUnitsOf}), and answered through fastify's own
 * reply, so the request log line, metrics and security headers are those of REST. The
 * SDK is imported on the first `/mcp` request: a process that never serves MCP never
 * loads it (several MB of heap).
 */
import type {
  FastifyInstance,
  FastifyReply,
  FastifyRequest,
  HookHandlerDoneFunction,
} from "fastify";
import type { AccessControl } from "../access/control.js";
import type { Principal } from "../access/principal.js";
import { type QuotaState, quotaExceeded } from "../access/rate-limit.js";
import {
  MAX_LIST_ITEMS_PER_REQUEST,
  overBudget,
  type Spent,
  takeSentItems,
} from "../core/budget.js";
import type { Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import { countingRunner } from "../observability/calculation-counters.js";
import type { Surface } from "../surface.js";
import { INVALID_REQUEST, mcpError, sendMcp, sendQuotaRefusal, TRANSPORT_ERROR } from "./errors.js";
import type { Exchange, QuotaMeta } from "./exchange.js";
import { DEFAULT_TOOL_SEARCH_THRESHOLD, listable } from "./search-tools.js";
import { createMcpTools, type McpTools } from "./tools.js";

export const MCP_PATH = "/mcp";

type ExchangeModule = typeof import("./exchange.js");

/**
 * The tools one request may see, with their server: a tool set (`/mcp/<area>`) narrowed to
 * the key's scopes. Made on first use; every key with every scope shares one per set.
 */
interface View {
  tools: McpTools;
  exchange: Exchange;
  /** Bytes of its `tools/list` answer, the same until a reload builds the tools again. */
  listBytes: number;
  unitsPerList: number;
}

/** Views kept at once: one per tool set for keys with every scope, the rest by scopes. */
const MAX_VIEWS = 64;

/** Argument names one tool call may have (an operation takes a handful of parameters). */
export const MAX_ARGUMENT_NAMES = 100;

/** A `tools/call` message's arguments when they are an object, else undefined. */
function callArguments(message: unknown): Record<string, unknown> | undefined {
  if ((message as { method?: unknown } | null)?.method !== "tools/call") return undefined;
  const args = (message as { params?: { arguments?: unknown } }).params?.arguments;
  return typeof args === "object" && args !== null ? (args as Record<string, unknown>) : undefined;
}

/**
 * Bytes of a list-like answer (`tools/list`) that cost one quota unit: a client pulling the
 * tool list in a loop spends its quota, instead of taking the whole list for nothing.
 */
export const LIST_BYTES_PER_UNIT = 16 * 1024;

/** The quota units of a list-like answer of `bytes`: one per {@link LIST_BYTES_PER_UNIT} begun, at least 1. */
export function listUnits(bytes: number): number {
  return Math.max(1, Math.ceil(bytes / LIST_BYTES_PER_UNIT));
}

/**
 * The quota units of a request's JSON-RPC messages: one per `tools/call`, `unitsPerList`
 * per `tools/list`. Nothing for the rest (`initialize`, `ping`, notifications, responses,
 * unknown methods): a request of those only is charged 0 units, so it passes while the key
 * has a unit left and is refused once it has none (see docs/mcp.md, *Quota*).
 */
export function quotaUnitsOf(messages: readonly unknown[], unitsPerList: number): number {
  let units = 0;
  for (const message of messages) {
    const method = (message as { method?: unknown } | null)?.method;
    if (method === "tools/call") units += 1;
    else if (method === "tools/list") units += unitsPerList;
  }
  return units;
}

export interface McpOptions {
  /**
   * Browser origins whose requests are served (`CORS_ORIGINS`); a request with another
   * `Origin` is refused with 403 before its key is read. A request without `Origin` (not
   * from a browser) is served.
   */
  allowedOrigins?: readonly string[];
  /** Tools a set lists before it lists `search_tools`/`call_tool` instead (0: never). */
  toolSearchThreshold?: number;
}

/**
 * Registers `POST /mcp` for `operations`, each tool call run by `run` (the gateway's
 * observed runner). Other methods get the service's 405: without sessions there is no
 * stream to open (GET) or end (DELETE).
 *
 * @example
 * registerMcp(app, operations, access, countingRunner(metrics, "mcp"), { allowedOrigins: [] });
 */
export function registerMcp(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  access: AccessControl,
  run: Runner,
  options: McpOptions = {},
): void {
  const origins = new Set(options.allowedOrigins ?? []);
  const threshold = options.toolSearchThreshold ?? DEFAULT_TOOL_SEARCH_THRESHOLD;
  const all = createMcpTools(operations, run, (error) =>
    app.log.error({ err: error }, "unexpected fault"),
  );
  // The SDK is imported on the first request; once loaded, requests use it without a promise.
  let loaded: ExchangeModule | undefined;
  let exchangeModule: Promise<ExchangeModule> | undefined;
  const sdk = (): Promise<ExchangeModule> => {
    if (exchangeModule === undefined) {
      exchangeModule = import("./exchange.js");
      exchangeModule.then(
        (module) => {
          loaded = module;
        },
        () => {
          exchangeModule = undefined; // the next request tries again
        },
      );
    }
    return exchangeModule;
  };
  /** Views by set and scopes: a promise while the view is being made, the view once made. */
  const views = new Map<string, View | Promise<View>>();
  /** The key of a principal with every scope, by set: made once, not per request. */
  const everythingKeys = new Map<string | undefined, string>();

  /** The view of tool set `area` (undefined: every area) for `principal`'s scopes. */
  function viewOf(area: string | undefined, principal: Principal): View | Promise<View> {
    let key = principal.everything ? everythingKeys.get(area) : undefined;
    if (key === undefined) {
      key = `${area ?? "*"}|${principal.everything ? "*" : principal.scopes.join(",")}`;
      if (principal.everything) everythingKeys.set(area, key);
    }
    const found = views.get(key);
    if (found !== undefined) return found;
    const tools = listable(
      area === undefined && principal.everything
        ? all
        : all.narrow(
            (operation) =>
              (area === undefined || operation.area === area) && principal.allows(operation),
            // run_recipe is on /mcp only: a tool set holds its area's operations.
            area === undefined,
          ),
      threshold,
    );
    const made = sdk().then(async ({ connectExchange }) => {
      const listBytes = Buffer.byteLength(JSON.stringify(tools.list));
      return {
        tools,
        exchange: await connectExchange(tools),
        listBytes,
        unitsPerList: listUnits(listBytes),
      };
    });
    const viewKey = key;
    made.then(
      (view) => {
        if (views.get(viewKey) === made) views.set(viewKey, view);
      },
      () => views.delete(viewKey),
    );
    if (views.size >= MAX_VIEWS) views.delete(views.keys().next().value as string);
    views.set(key, made);
    return made;
  }

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

  /** Work of writing a `tools/list` answer, per byte (~10 ns). */
  const LIST_WORK_PER_BYTE = 10;

  /**
   * Why a batch's messages together are over the request's limits, or undefined: the list
   * items its calls send (counted before any is read, as GraphQL counts its fields'), then
   * what its calls declare and its `tools/list` answers take.
   */
  function batchOverBudget(messages: unknown[], view: View): string | undefined {
    const { tools, listBytes } = view;
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

  /**
   * Why the framed `messages` are refused whole for their arguments or their budget, or
   * undefined. A batch is one request: its messages share one budget, as a GraphQL
   * document's fields do.
   */
  function overBounds(messages: unknown[], view: View): string | undefined {
    return (
      tooManyArgumentNames(messages) ??
      (messages.length > 1 ? batchOverBudget(messages, view) : undefined)
    );
  }

  /** The 429 of a request its key's quota does not cover (headers set by `charge`). */
  function refuse(reply: FastifyReply, state: QuotaState, units: number): FastifyReply {
    return sendQuotaRefusal(reply, quotaExceeded(state, "this API key", units));
  }

  /** Answers one `/mcp` request for tool set `area` (undefined: every area). */
  async function answer(
    area: string | undefined,
    request: FastifyRequest,
    reply: FastifyReply,
  ): Promise<FastifyReply> {
    const { frame, dispatch } = loaded ?? (await sdk());
    // Whatever can refuse the request comes before its charge: a refused request costs nothing.
    const messages = frame(request.headers, request.body);
    if (!Array.isArray(messages)) return sendMcp(reply, messages);
    const found = viewOf(area, request.principal as Principal);
    const view = found instanceof Promise ? await found : found;
    const over = overBounds(messages, view);
    if (over !== undefined) {
      return sendMcp(reply, mcpError(400, INVALID_REQUEST, `Invalid Request: ${over}`));
    }
    // Charged once, whatever the request holds; 0 units only asks whether a unit is left.
    // A run_recipe call is a unit per step (quotaUnitsOf counted one).
    let units = quotaUnitsOf(messages, view.unitsPerList);
    for (const message of messages) {
      const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
      const recipe = view.tools.recipeCharge(params?.name, params?.arguments);
      if (recipe !== undefined && callArguments(message) !== undefined) units += recipe.units - 1;
    }
    // At once where the counters are in this process: the state is read before any yield.
    const charged = access.chargeNow(request, reply, units);
    const state = charged instanceof Promise ? await charged : charged;
    if (state && !state.allowed) return refuse(reply, state, units);
    for (const message of messages) {
      if ((message as { method?: unknown }).method !== "tools/call") continue;
      const params = (message as { params?: { name?: unknown; arguments?: unknown } }).params;
      const operation = view.tools.operationOf(params?.name, params?.arguments);
      if (operation !== undefined) access.used(request, operation, 1);
      for (const step of view.tools.recipeCharge(params?.name, params?.arguments)?.operations ??
        []) {
        access.used(request, step, 1);
      }
    }
    const meta: QuotaMeta | undefined = state && {
      limit: state.policy.limit,
      remaining: state.remaining,
      resetSeconds: state.resetSeconds,
    };
    return sendMcp(reply, await dispatch(view.exchange, messages, meta));
  }

  /**
   * Refuses a request whose `Origin` is not allowed, before anything else: the transport
   * spec's guard against DNS rebinding (a page on another origin reaching a local service
   * through a name that resolves to it).
   */
  function checkOrigin(
    request: FastifyRequest,
    reply: FastifyReply,
    done: HookHandlerDoneFunction,
  ) {
    const origin = request.headers.origin;
    if (origin === undefined || origins.has(origin)) {
      done();
      return;
    }
    sendMcp(
      reply,
      mcpError(
        403,
        TRANSPORT_ERROR,
        "Forbidden: this Origin is not allowed (the service's CORS_ORIGINS lists the browser origins it serves)",
      ),
    );
  }

  const onRequest = [checkOrigin, access.authenticateOnly];
  app.post(MCP_PATH, { onRequest }, (request, reply) => answer(undefined, request, reply));
  // A tool set per area, so clients that cap their tools can mount the areas they need.
  for (const area of new Set(operations.map((operation) => operation.area))) {
    app.post(`${MCP_PATH}/${area}`, { onRequest }, (request, reply) =>
      answer(area, request, reply),
    );
  }
}

/** MCP over HTTP: `/mcp` and its tool sets `/mcp/<area>`. */
export const mcpSurface: Surface = {
  name: "mcp",
  register(app, { config, operations, access, metrics }) {
    registerMcp(app, operations, access, countingRunner(metrics, "mcp"), {
      allowedOrigins: config.corsOrigins,
      toolSearchThreshold: config.mcpToolSearchThreshold,
    });
  },
};
