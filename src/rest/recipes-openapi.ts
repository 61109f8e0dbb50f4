/**
 * `POST /v1/recipes` in the OpenAPI document (API.md §8): the request and answer schemas,
 * and the contract's example with the answer it really gives, made by running it through
 * the runner when the document is built (so the example cannot drift from the service).
 */

import type { OpenApiFragment } from "../core/json-schema.js";
import {
  checkRecipe,
  MAX_RECIPE_STEPS,
  RECIPES_PATH,
  recipeBook,
  runRecipe,
  STEP_ID_PATTERN,
} from "../core/recipes.js";
import { execute } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";

type JsonObject = Record<string, unknown>;

/** The contract's example (API.md §8): a sum, its square root, the root's MD5. */
export const RECIPE_EXAMPLE = {
  steps: [
    { id: "total", op: "math/sum", args: { numbers: ["0.1", "0.2", "0.7"] } },
    {
      id: "root",
      op: "math/nth-root",
      args: { number: { $ref: "total.decimal" }, degree: 2 },
    },
    { id: "digest", op: "crypto/checksum/md5", args: { text: { $ref: "root.decimal" } } },
  ],
};

const schemaRef = (name: string) => ({ $ref: `#/components/schemas/${name}` });
const responseRef = (name: string) => ({ $ref: `#/components/responses/${name}` });
const message = (description: string) => ({
  description,
  content: { "application/json": { schema: schemaRef("ErrorMessage") } },
});

/** What the example answers here, or undefined when these operations cannot run it. */
function exampleAnswer(operations: readonly AnyOperation[]): JsonObject | undefined {
  const book = recipeBook(operations);
  const { recipe } = checkRecipe(book, RECIPE_EXAMPLE, { source: "body" });
  if (recipe === undefined) return undefined;
  const { answer } = runRecipe(book, recipe, execute, () => {});
  return answer.steps.every((step) => step.status === 200)
    ? (answer as unknown as JsonObject)
    : undefined;
}

/** The path, tag and schemas `POST /v1/recipes` adds to the document. */
export function recipesDocument(operations: readonly AnyOperation[]): OpenApiFragment {
  const ops = operations.map((operation) => `${operation.area}/${operation.name}`);
  const answer = exampleAnswer(operations);
  const priced = {
    units: RECIPE_EXAMPLE.steps.length,
    steps: RECIPE_EXAMPLE.steps.map(({ id, op }) => ({ id, op, units: 1 })),
  };
  const paths: Record<string, JsonObject> = {
    [RECIPES_PATH]: {
      post: {
        operationId: "recipes.run",
        tags: ["recipes"],
        summary: "Runs several operations in one request, later steps fed by earlier outputs.",
        description:
          "Each step names an operation (`area/name`, as in its path) and its arguments as JSON " +
          '(lists as arrays, decimals as strings or numbers). An argument, or a list item, may be a reference `{"$ref": "<stepId>.<path>"}` ' +
          "to a field of an earlier step's output: field names and list indices separated by dots " +
          "(`fb.items.2`); values pass exactly, so a decimal string stays digit for digit.\n\n" +
          `The recipe is checked whole before anything runs: 1 to ${MAX_RECIPE_STEPS} steps, unique ids, ` +
          "known operations, references to earlier steps only, every literal argument valid, and the " +
          "literal steps together within one request's budget. Otherwise 422 with every problem, and " +
          "nothing is run or charged. A step out of the key's scopes refuses the recipe with 403.\n\n" +
          "The 200 answer has one entry per step: `status` 200 with `output`; 422 with `detail` when its " +
          "input, references resolved, is invalid or would take the recipe past one request's budget; " +
          "424 when it refers to a step that did not answer 200 (not run); 404 or 500 as the operation " +
          "would answer over REST. Each step is charged one quota unit and counted as a call of its " +
          "operation. `?dryRun=true` checks and prices the recipe without running it. See docs/recipes.md.\n\n" +
          // In the description, not in `examples`: tools resolve any `$ref` member they meet.
          `The contract's example (its answer is the 200 example):\n\n\`\`\`json\n${JSON.stringify(RECIPE_EXAMPLE, null, 2)}\n\`\`\``,
        parameters: [
          {
            name: "dryRun",
            in: "query",
            required: false,
            description: "Check and price the recipe without running it (nothing is charged).",
            schema: { type: "boolean", default: false },
          },
        ],
        requestBody: {
          required: true,
          content: { "application/json": { schema: schemaRef("Recipe") } },
        },
        responses: {
          "200": {
            description:
              "The steps' answers, in order (or, with `?dryRun=true`, the recipe's price).",
            content: {
              "application/json": {
                schema: { anyOf: [schemaRef("RecipeAnswer"), schemaRef("RecipePrice")] },
                examples: {
                  ...(answer ? { contract: { summary: "The steps' answers", value: answer } } : {}),
                  dryRun: { summary: "With ?dryRun=true", value: priced },
                },
              },
            },
          },
          "400": message("The body is not JSON, or nests too deep or holds too many values."),
          "401": responseRef("Unauthorized"),
          "403": message("A step's operation is outside the key's scopes: nothing ran."),
          "413": message("The body is larger than 1 MiB."),
          "415": message("The body is not application/json."),
          "422": responseRef("ValidationError"),
          "429": responseRef("TooManyRequests"),
          "500": responseRef("InternalError"),
        },
      },
    },
  };
  const stepAnswer = {
    type: "object",
    required: ["id", "op", "status"],
    properties: {
      id: { type: "string" },
      op: { type: "string" },
      status: {
        type: "integer",
        enum: [200, 404, 422, 424, 500],
        description:
          "200: ran; 422: invalid input or over the recipe's budget; 424: refers to a failed step, not run; 404 and 500 as over REST.",
      },
      output: { description: "The operation's answer, as REST answers it (status 200)." },
      detail: {
        description: "Why the step did not answer 200: every problem (422), or a sentence.",
        anyOf: [{ type: "string" }, { type: "array", items: schemaRef("ValidationProblem") }],
      },
    },
  };
  const schemas: Record<string, JsonObject> = {
    Recipe: {
      type: "object",
      required: ["steps"],
      additionalProperties: false,
      properties: {
        steps: {
          type: "array",
          minItems: 1,
          maxItems: MAX_RECIPE_STEPS,
          items: schemaRef("RecipeStep"),
        },
      },
    },
    RecipeStep: {
      type: "object",
      required: ["id", "op"],
      additionalProperties: false,
      properties: {
        id: {
          type: "string",
          pattern: STEP_ID_PATTERN,
          description: "Unique in the recipe; references name it.",
        },
        op: { type: "string", enum: ops, description: "The operation: `area/name`." },
        args: {
          type: "object",
          description:
            "The operation's parameters as JSON; any of them, or any list item, may be a RecipeReference.",
          additionalProperties: {
            anyOf: [
              schemaRef("RecipeReference"),
              { type: ["string", "number", "boolean"] },
              {
                type: "array",
                items: {
                  anyOf: [schemaRef("RecipeReference"), { type: ["string", "number", "boolean"] }],
                },
              },
            ],
          },
        },
      },
    },
    RecipeReference: {
      type: "object",
      description:
        'A field of an earlier step\'s output: `{"$ref": "<stepId>.<path>"}`, the path being field names and list indices separated by dots.',
      minProperties: 1,
      maxProperties: 1,
      patternProperties: { "^\\$ref$": { type: "string" } },
      additionalProperties: false,
    },
    RecipeAnswer: {
      type: "object",
      required: ["steps"],
      properties: { steps: { type: "array", items: stepAnswer } },
    },
    RecipePrice: {
      type: "object",
      required: ["units", "steps"],
      properties: {
        units: { type: "integer", description: "Quota units the recipe would be charged." },
        steps: {
          type: "array",
          items: {
            type: "object",
            required: ["id", "op", "units"],
            properties: {
              id: { type: "string" },
              op: { type: "string" },
              units: { type: "integer" },
            },
          },
        },
      },
    },
  };
  const tag = {
    name: "recipes",
    description: "Chained calculations: several operations in one request (docs/recipes.md).",
  };
  return { paths, schemas, tags: [tag] };
}
