/**
 * The MCP tool `run_recipe` (API.md §8): a recipe (`{"steps": […]}`) run by the one
 * recipe runner (core/recipes.ts), with the steps the endpoint's tools allow. Its answer
 * is REST's 200 body, as structured content; a recipe refused whole is an `isError`
 * result with REST's `detail`.
 */
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import { operationKey } from "../access/principal.js";
import { refusalCost, type Spent } from "../core/budget.js";
import {
  checkRecipe,
  MAX_RECIPE_STEPS,
  type RecipeCheck,
  recipeBook,
  runRecipe,
  STEP_ID_PATTERN,
  UNITS_PER_STEP,
} from "../core/recipes.js";
import type { Runner } from "../core/runner.js";
import { REQUEST_BUDGET } from "../kit/cost.js";
import type { AnyOperation } from "../kit/define.js";

export const RECIPE_TOOL_NAME = "run_recipe";

type JsonObject = Record<string, unknown>;

/** Which operations a recipe's steps may name here: the endpoint's tools. */
export type Allows = (operation: AnyOperation) => boolean;

export interface RecipeTool {
  /** Its `tools/list` entry. */
  readonly tool: Tool;
  /** Runs one call with `args`, its steps limited to what `allows` accepts. */
  call(args: JsonObject | undefined, allows: Allows): CallToolResult;
  /**
   * What a call declares it will spend in a batch: its literal steps' costs, and a whole
   * request's budget once any step has references (what those take is known only as they
   * resolve); what refusing it costs when it is refused.
   */
  costOf(args: unknown): Spent;
  /**
   * What a call is charged and counted as: a unit per step and each step as a call of its
   * operation when it will run; one unit and no operation when it is refused whole.
   */
  charge(args: unknown, allows: Allows): { units: number; operations: AnyOperation[] };
}

const stepAnswer = {
  type: "object",
  required: ["id", "op", "status"],
  properties: {
    id: { type: "string" },
    op: { type: "string" },
    status: { type: "integer" },
    output: {
      type: "object",
      description: "The step's answer (status 200), as its operation answers.",
    },
    detail: {
      description: "Why the step did not run (422, 424, 404): a sentence or the problems.",
      anyOf: [{ type: "string" }, { type: "array", items: { type: "object" } }],
    },
  },
};

function errorResult(detail: unknown): CallToolResult {
  // In the order of the SDK's result schema, as its parse would write it (server.ts).
  return { content: [{ type: "text", text: JSON.stringify({ detail }) }], isError: true };
}

/**
 * The tool over `operations`, each step run by `run`; `onFault` hears about unexpected errors.
 *
 * @example
 * const recipes = createRecipeTool(operations, execute, () => {});
 * recipes.call({ steps: [{ id: "s", op: "math/sum", args: { numbers: ["1"] } }] }, () => true);
 */
export function createRecipeTool(
  operations: readonly AnyOperation[],
  run: Runner,
  onFault: (error: unknown) => void,
): RecipeTool {
  const book = recipeBook(operations);
  // A call's arguments are checked when it is charged and again when it runs: once, kept
  // by the arguments object the request carries to the tool.
  const checks = new WeakMap<object, RecipeCheck>();
  function checkOf(args: JsonObject): RecipeCheck {
    let check = checks.get(args);
    if (check === undefined) {
      // Answered twice in MCP (text and structured content): its bytes count twice.
      check = checkRecipe(book, args, { source: "arguments", bytesFactor: 2 });
      checks.set(args, check);
    }
    return check;
  }
  const isObject = (value: unknown): value is JsonObject =>
    typeof value === "object" && value !== null && !Array.isArray(value);
  const denied = (check: RecipeCheck, allows: Allows) =>
    check.operations.find((operation) => !allows(operation));

  const tool: Tool = {
    name: RECIPE_TOOL_NAME,
    title: "Run a recipe: several operations, later steps fed by earlier outputs",
    description:
      "Runs up to 20 steps in order, each one of this server's tools given as `op` (`area/name`, " +
      'e.g. "math/sum") with its arguments in `args`. An argument, or a list item, may be ' +
      '{"$ref": "<stepId>.<path>"}: a field of an earlier step\'s output, the path being field ' +
      'names and list indices separated by dots ("fb.items.2"). Values pass exactly: use a ' +
      "result's `decimal` to keep every digit. The recipe is checked whole first: any problem " +
      'answers isError with {"detail": [...]} and nothing runs. Otherwise each step answers ' +
      "`status` 200 with `output`, 422 with `detail` (its input, references resolved, is invalid), " +
      "or 424 (it refers to a step that failed; not run).",
    inputSchema: {
      type: "object",
      required: ["steps"],
      additionalProperties: false,
      properties: {
        steps: {
          type: "array",
          minItems: 1,
          maxItems: MAX_RECIPE_STEPS,
          items: {
            type: "object",
            required: ["id", "op"],
            additionalProperties: false,
            properties: {
              id: { type: "string", pattern: STEP_ID_PATTERN },
              op: { type: "string", enum: operations.map(operationKey) },
              args: { type: "object" },
            },
          },
        },
      },
    },
    outputSchema: {
      type: "object",
      required: ["steps"],
      properties: { steps: { type: "array", items: stepAnswer } },
    },
    annotations: {
      title: "Run a recipe",
      readOnlyHint: true,
      destructiveHint: false,
      idempotentHint: operations.every((operation) => operation.nondeterministic === undefined),
      openWorldHint: false,
    },
  };

  return {
    tool,
    call(args, allows) {
      const check = checkOf(args ?? {});
      const outside = denied(check, allows);
      if (outside !== undefined) {
        return errorResult(
          `The operation ${operationKey(outside)} is not among this endpoint's tools (the API key's scopes): the recipe was not run`,
        );
      }
      if (check.recipe === undefined) return errorResult(check.problems);
      const { answer } = runRecipe(book, check.recipe, run, onFault);
      return {
        content: [{ type: "text", text: JSON.stringify(answer) }],
        structuredContent: answer as unknown as JsonObject,
      };
    },
    costOf(args) {
      if (!isObject(args)) return { work: 0, bytes: 0 };
      const { recipe } = checkOf(args);
      if (recipe === undefined) return refusalCost(args);
      if (recipe.steps.some((step) => step.referenced)) return { ...REQUEST_BUDGET };
      return { ...recipe.literalSpent };
    },
    charge(args, allows) {
      const check = isObject(args) ? checkOf(args) : undefined;
      if (check?.recipe === undefined || denied(check, allows) !== undefined) {
        return { units: 1, operations: [] };
      }
      const operations = check.recipe.steps.map((step) => step.operation);
      return { units: operations.length * UNITS_PER_STEP, operations };
    },
  };
}
