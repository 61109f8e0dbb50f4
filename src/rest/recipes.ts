/**
 * `POST /v1/recipes` (API.md §8): a recipe checked whole, then run step by step through
 * the REST runner (core/recipes.ts). The access layer decides as for every REST route,
 * once per step: a step out of the key's scopes refuses the recipe (403) before anything
 * runs; the quota is charged one unit per step, and usage counts each step as a call of
 * its operation. A recipe refused (403, 422) is charged nothing.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { type AccessControl, outOfScope } from "../access/control.js";
import type { QuotaState } from "../access/rate-limit.js";
import { declaredAnswer } from "../core/budget.js";
import type { QueryValues } from "../core/query.js";
import {
  checkRecipe,
  priceRecipe,
  RECIPES_PATH,
  type RecipeBook,
  recipeBook,
  runRecipe,
  UNITS_PER_STEP,
} from "../core/recipes.js";
import type { Runner } from "../core/runner.js";
import { sendError } from "../http/errors.js";
import { parseBoolean } from "../kit/booleans.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { countingRunner } from "../observability/calculation-counters.js";
import type { Surface } from "../surface.js";
import { recipesDocument } from "./recipes-openapi.js";

/** Whether the query asks for a dry run (`?dryRun=true`), and what is wrong with it. */
export function readRecipeQuery(values: QueryValues | undefined): {
  dryRun: boolean;
  problems: Problem[];
} {
  const problems: Problem[] = [];
  let dryRun = false;
  if (values === undefined) return { dryRun, problems };
  for (const [name, list] of values) {
    if (name !== "dryRun") {
      problems.push({
        loc: ["query", name],
        msg: "Extra inputs are not permitted",
        type: "extra_forbidden",
      });
      continue;
    }
    const parsed = list.length === 1 ? parseBoolean(list[0] as string) : undefined;
    if (parsed === undefined) {
      problems.push({
        loc: ["query", "dryRun"],
        msg:
          list.length === 1
            ? "Input should be a valid boolean, unable to interpret input"
            : "Value error, give dryRun once",
        type: list.length === 1 ? "bool_parsing" : "value_error",
      });
    } else {
      dryRun = parsed;
    }
  }
  if (values.malformed?.length) {
    for (const { name } of values.malformed) {
      problems.push({
        loc: ["query", name],
        msg: "Value error, the value is not valid percent-encoded UTF-8",
        type: "value_error",
      });
    }
  }
  return { dryRun, problems };
}

function tooManyRequests(reply: FastifyReply, state: QuotaState, units: number): FastifyReply {
  const asked = units > 0 ? `this recipe asks for ${units}` : "none is left";
  return sendError(
    reply,
    429,
    `Too many requests: this API key is limited to ${state.policy.limit} units per ${state.policy.windowSeconds} seconds; ${asked}; retry in ${state.resetSeconds} seconds`,
    { "retry-after": String(state.resetSeconds) },
  );
}

/**
 * What `POST /v1/recipes` answers for `request`, through `access` and `run`: the refusal
 * sent, or the body to send (the run's answer, or the price of a dry run).
 */
async function answerRecipe(
  book: RecipeBook,
  access: AccessControl,
  run: Runner,
  request: FastifyRequest,
  reply: FastifyReply,
): Promise<unknown> {
  const query = readRecipeQuery(request.query as QueryValues | undefined);
  const check = checkRecipe(book, request.body, { source: "body" });
  // As on a REST route, the scopes are asked before the input is judged.
  for (const operation of check.operations) {
    if (!access.allows(request, operation)) return sendError(reply, 403, outOfScope(operation));
  }
  const problems = [...query.problems, ...check.problems];
  if (problems.length > 0 || check.recipe === undefined) return sendError(reply, 422, problems);
  const recipe = check.recipe;
  const units = query.dryRun ? 0 : recipe.steps.length * UNITS_PER_STEP;
  // A dry run charges nothing, but a key with nothing left gets nothing, free or not.
  const state = await access.charge(request, reply, units);
  if (state && !state.allowed) return tooManyRequests(reply, state, units);
  if (query.dryRun) return priceRecipe(recipe);
  for (const step of recipe.steps) access.used(request, step.operation, UNITS_PER_STEP);
  const { answer, bytes } = runRecipe(book, recipe, run, (error) =>
    request.log.error({ requestId: request.id, err: error }, "unexpected fault"),
  );
  // The heavy lane writes a large answer a piece per turn, as it does an operation's.
  declaredAnswer.bytes = bytes;
  return answer;
}

/**
 * Registers `POST /v1/recipes` for `operations`, each step run by `run` (the REST
 * gateway's runner), behind `access`.
 *
 * @example
 * registerRecipes(app, operations, access, countingRunner(metrics, "rest"));
 */
export function registerRecipes(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  access: AccessControl,
  run: Runner,
): void {
  const book = recipeBook(operations);
  app.post(RECIPES_PATH, { onRequest: access.authenticateOnly }, (request, reply) =>
    answerRecipe(book, access, run, request, reply),
  );
}

/** Recipes: `POST /v1/recipes`, each step counted as a REST calculation. */
export const recipesSurface: Surface = {
  name: "recipes",
  document: recipesDocument,
  register(app, { operations, access, metrics }) {
    registerRecipes(app, operations, access, countingRunner(metrics, "rest"));
  },
};
