/**
 * The MCP surface's one adapter over the registry: a tool per operation, and the tool
 * call that runs it through the shared runner. It needs no part of the SDK at run time
 * (types only): `server.ts` builds the SDK's server around it, and transports (Streamable
 * HTTP, stdio) only carry messages to that server.
 */
import type { CallToolResult, ListToolsResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { chargedCost, costProblem, declaredCost, refusalCost, type Spent } from "../core/budget.js";
import { jsonSchema } from "../core/json-schema.js";
import { locate } from "../core/problems.js";
import { InvalidInputError, NotFoundError, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { describeParam, type ParamDescription } from "../kit/params.js";
import { portableSchema } from "./portable.js";
import { createRecipeTool, RECIPE_TOOL_NAME, type RecipeTool } from "./recipe-tool.js";

type JsonObject = Record<string, unknown>;

/** Where a problem sits in a tool call: the `arguments` object, then the parameter. */
export const ARGUMENTS_SOURCE = "arguments";

/**
 * The longest tool name clients take (the spec's SEP-986 guidance and the conformance
 * suite's check); names are letters, digits and `_`.
 */
export const MAX_TOOL_NAME_LENGTH = 64;

/** `math/nth-root` → `math_nth_root`, `crypto/checksum/md5` → `crypto_checksum_md5`. */
export function toolNameOf(operation: AnyOperation): string {
  return `${operation.area}_${operation.name}`.replace(/[/-]/g, "_");
}

/** A decimal parameter's schema widened to a JSON number too, as GraphQL's `Decimal`. */
function acceptNumber(schema: JsonObject): JsonObject {
  const { description, ...asString } = schema;
  return {
    anyOf: [asString, { type: "number" }],
    ...(description === undefined ? {} : { description }),
  };
}

/**
 * The tool's input schema: the operation's input as the OpenAPI document states it, with
 * decimals (and lists of them) also taking a JSON number, and no other property allowed.
 */
function inputSchemaOf(operation: AnyOperation, params: Map<string, ParamDescription>): JsonObject {
  const schema = jsonSchema(operation.input, "input");
  const properties = { ...(schema.properties as Record<string, JsonObject>) };
  for (const [name, param] of params) {
    const property = properties[name];
    if (!property) continue;
    if (param.kind === "decimal") properties[name] = acceptNumber(property);
    if (param.kind === "list" && param.item?.kind === "decimal") {
      properties[name] = { ...property, items: acceptNumber(property.items as JsonObject) };
    }
  }
  return { ...schema, properties, additionalProperties: false };
}

/**
 * One operation as a tool: what a call needs, and what `tools/list` shows, each made once,
 * when first needed (their JSON Schemas are most of a start's work at a few hundred tools).
 */
interface ToolEntry {
  name: string;
  operation: AnyOperation;
  params: Map<string, ParamDescription>;
  /** Whether the result may carry `structuredContent` (MCP wants an object there). */
  structured: boolean | undefined;
  /** Its `tools/list` entry. */
  tool: Tool | undefined;
}

/** Whether `entry`'s answer is an object, carried as `structuredContent` too. */
function structuredOf(entry: ToolEntry): boolean {
  entry.structured ??= jsonSchema(entry.operation.output, "output").type === "object";
  return entry.structured;
}

/** `entry`'s `tools/list` entry. */
function toolOf(entry: ToolEntry): Tool {
  if (entry.tool !== undefined) return entry.tool;
  const { name, operation, params } = entry;
  const structured = structuredOf(entry);
  entry.tool = {
    name,
    title: operation.summary,
    description: operation.nondeterministic
      ? `${operation.description}\n\n${operation.nondeterministic}`
      : operation.description,
    inputSchema: portableSchema(inputSchemaOf(operation, params)) as Tool["inputSchema"],
    ...(structured
      ? {
          outputSchema: portableSchema(
            jsonSchema(operation.output, "output"),
          ) as Tool["outputSchema"],
        }
      : {}),
    annotations: {
      title: operation.summary,
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: operation.nondeterministic === undefined,
      openWorldHint: false,
    },
  };
  return entry.tool;
}

export interface McpTools {
  /** The `tools/list` answer, built once (when first read). */
  readonly list: ListToolsResult;
  /** Runs one `tools/call`; undefined for an unknown tool name. */
  call(name: string, args: JsonObject | undefined): CallToolResult | undefined;
  /**
   * What one call declares it will spend (its operation's `cost`; the answer's bytes
   * twice, as text and as structured content; refusing its arguments when they are
   * invalid), or undefined for an unknown tool or arguments that are not an object.
   */
  costOf(name: unknown, args: unknown): Spent | undefined;
  /**
   * The same tools, only those whose operation `keep` accepts (a tool set, a key's
   * scopes): built from the tools already made, in the same order. `run_recipe` stays
   * (its steps limited to the tools kept) unless `recipes` is false or no tool is kept.
   */
  narrow(keep: (operation: AnyOperation) => boolean, recipes?: boolean): McpTools;
  /**
   * What a `run_recipe` call is charged (a unit per step) and counted as (each step's
   * operation); undefined for any other tool, which is one unit and its own operation.
   */
  recipeCharge(name: unknown, args: unknown): ReturnType<RecipeTool["charge"]> | undefined;
  /**
   * The operation a call of tool `name` with `args` runs, or undefined for a name not among
   * these tools (`args` matters only to a tool that calls another, see search-tools.ts).
   */
  operationOf(name: unknown, args?: unknown): AnyOperation | undefined;
}

function decimalText(value: unknown): unknown {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : value;
}

/**
 * The operation's input from a tool call's arguments: decimals given as JSON numbers
 * become their shortest text (send strings to keep every digit), everything else is
 * passed on for the runner to check. Unknown arguments are problems, as in REST.
 */
function inputOf(
  entry: ToolEntry,
  args: JsonObject,
): { input: Record<string, unknown>; problems: Problem[] } {
  const input: Record<string, unknown> = {};
  const problems: Problem[] = [];
  for (const name of Object.keys(args)) {
    const param = entry.params.get(name);
    const value = args[name];
    if (!param) {
      problems.push({
        loc: [name],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
      });
    } else if (param.kind === "decimal") {
      input[name] = decimalText(value);
    } else if (param.kind === "list" && param.item?.kind === "decimal" && Array.isArray(value)) {
      input[name] = value.map(decimalText);
    } else {
      input[name] = value;
    }
  }
  return { input, problems };
}

export function errorResult(detail: string | Problem[]): CallToolResult {
  // In the order of the SDK's result schema, as its parse would write it (server.ts).
  return { content: [{ type: "text", text: JSON.stringify({ detail }) }], isError: true };
}

/**
 * Builds the tools for `operations`, each call run by `run`. `onFault` hears about
 * unexpected errors (the caller gets only "Internal Server Error").
 *
 * @example
 * const tools = createMcpTools(operations, execute, (error) => log.error({ err: error }));
 * await mcpServer(tools).connect(new StdioServerTransport());
 */
export function createMcpTools(
  operations: readonly AnyOperation[],
  run: Runner,
  onFault: (error: unknown) => void,
): McpTools {
  const entries = new Map<string, ToolEntry>();
  for (const operation of operations) {
    const name = toolNameOf(operation);
    const clash = entries.get(name)?.operation;
    if (clash) {
      throw new Error(
        `MCP tool name '${name}' is shared by ${clash.area}/${clash.name} and ${operation.area}/${operation.name}`,
      );
    }
    if (name.length > MAX_TOOL_NAME_LENGTH || !/^[A-Za-z0-9_]+$/.test(name)) {
      throw new Error(
        `MCP tool name '${name}' of ${operation.area}/${operation.name} is not 1–${MAX_TOOL_NAME_LENGTH} letters, digits and '_'`,
      );
    }
    const params = new Map(
      Object.entries(operation.input.shape).map(([param, schema]) => [
        param,
        describeParam(schema),
      ]),
    );
    entries.set(name, { name, operation, params, structured: undefined, tool: undefined });
  }
  return toolsOf(entries, run, onFault, createRecipeTool(operations, run, onFault));
}

/** The tools of `entries` (`tools/list` lists them in that order). */
function toolsOf(
  entries: ReadonlyMap<string, ToolEntry>,
  run: Runner,
  onFault: (error: unknown) => void,
  recipe: RecipeTool | undefined,
): McpTools {
  const recipes = recipe !== undefined && entries.size > 0 ? recipe : undefined;
  let list: ListToolsResult | undefined;
  const inView = new Set([...entries.values()].map((entry) => entry.operation));
  const allows = (operation: AnyOperation) => inView.has(operation);

  function call(name: string, args: JsonObject | undefined): CallToolResult | undefined {
    if (recipes && name === RECIPE_TOOL_NAME) return recipes.call(args, allows);
    const entry = entries.get(name);
    if (!entry) return undefined;
    const { input, problems } = inputOf(entry, args ?? {});
    try {
      // A structured answer goes out twice, as text and as structured content: its bytes
      // count twice against the budget, as a batch's do. Refused through the runner, which
      // counts it as an invalid calculation. Only a declared cost can reach the budget.
      const structured = structuredOf(entry);
      if (structured && entry.operation.cost && problems.length === 0) {
        const cost = declaredCost(entry.operation, input);
        const over = cost && costProblem({ ...cost, bytes: cost.bytes * 2 });
        if (over) problems.push(over);
      }
      const body = run(entry.operation, input, problems);
      const text = JSON.stringify(body);
      return structured
        ? { content: [{ type: "text", text }], structuredContent: body as JsonObject }
        : { content: [{ type: "text", text }] };
    } catch (error) {
      if (error instanceof InvalidInputError) {
        return errorResult(locate(error.problems, ARGUMENTS_SOURCE));
      }
      if (error instanceof NotFoundError) return errorResult(error.message);
      onFault(error);
      return errorResult("Internal Server Error");
    }
  }

  function costOf(name: unknown, args: unknown): Spent | undefined {
    if (recipes && name === RECIPE_TOOL_NAME) return recipes.costOf(args);
    const entry = typeof name === "string" ? entries.get(name) : undefined;
    if (!entry || typeof args !== "object" || args === null) return undefined;
    const { input, problems } = inputOf(entry, args as JsonObject);
    // Arguments already refused by name or shape are charged for their refusal, as
    // invalid values are.
    const cost = problems.length === 0 ? chargedCost(entry.operation, input) : refusalCost(input);
    return { work: cost.work, bytes: structuredOf(entry) ? cost.bytes * 2 : cost.bytes };
  }

  function narrow(keep: (operation: AnyOperation) => boolean, withRecipes = true): McpTools {
    const kept = new Map<string, ToolEntry>();
    for (const [name, entry] of entries) if (keep(entry.operation)) kept.set(name, entry);
    return toolsOf(kept, run, onFault, withRecipes ? recipe : undefined);
  }

  const operationOf = (name: unknown) =>
    typeof name === "string" ? entries.get(name)?.operation : undefined;

  const recipeCharge = (name: unknown, args: unknown) =>
    recipes && name === RECIPE_TOOL_NAME ? recipes.charge(args, allows) : undefined;

  return {
    get list() {
      if (list === undefined) {
        const tools = [...entries.values()].map(toolOf);
        list = { tools: recipes ? [...tools, recipes.tool] : tools };
      }
      return list;
    },
    call,
    costOf,
    narrow,
    operationOf,
    recipeCharge,
  };
}
