/**
 * Recipes (API.md §8): several operations in one request, later steps fed by earlier
 * steps' outputs through `{"$ref": "<stepId>.<path>"}`. A recipe is checked whole before
 * anything runs (every problem at once); then each step runs through the one runner, as
 * REST runs it, and one request's budget (work, answer bytes, list items) covers them all.
 * The surfaces (REST, MCP, the CLI) add only their access decisions and their framing.
 */
import { type Cost, readingCost } from "../kit/cost.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { describeParam, type ParamDescription } from "../kit/params.js";
import {
  costProblem,
  declaredCost,
  MAX_LIST_ITEMS_PER_REQUEST,
  overBudget,
  refusalCost,
  type Spent,
  takeSentItems,
} from "./budget.js";
import { inputCheckOf, UNSURE } from "./compile-input.js";
import { toProblems } from "./problems.js";
import { InvalidInputError, NotFoundError, type Runner } from "./runner.js";

/** Where REST serves recipes. */
export const RECIPES_PATH = "/v1/recipes";

/** Steps one recipe may have. */
export const MAX_RECIPE_STEPS = 20;

/** What a step id looks like (API.md §8). */
export const STEP_ID_PATTERN = "^[A-Za-z][A-Za-z0-9_-]{0,63}$";
const STEP_ID = new RegExp(STEP_ID_PATTERN);

/**
 * Answer bytes of one step's entry around its output (`{"id":…,"op":…,"status":200,
 * "output":…}` with a 64-character id), and of an error entry's short detail.
 */
export const STEP_ENVELOPE_BYTES = 256;

/**
 * Argument names one step may have, as one MCP tool call may: no operation takes more than
 * a few, and each unknown name is a problem of its own in the answer.
 */
export const MAX_STEP_ARGUMENTS = 100;

/** Quota units a step is charged: one, as the REST call of its operation is. */
export const UNITS_PER_STEP = 1;

/** Where a recipe's problems point: `"body"` (REST), `"arguments"` (MCP). */
export interface RecipeOptions {
  source: string;
  /**
   * How many times each answer byte is sent: MCP sends a structured answer twice (as
   * text and as structured content). 1 by default.
   */
  bytesFactor?: number;
}

/** A reference, once checked: the index of the step it names and the path into its output. */
class Reference {
  constructor(
    readonly step: number,
    readonly id: string,
    readonly path: readonly string[],
  ) {}
}

/** One checked step. */
export interface RecipeStep {
  readonly index: number;
  readonly id: string;
  /** `area/name`, as sent. */
  readonly op: string;
  readonly operation: AnyOperation;
  /**
   * The step's arguments as the operation's raw input (decimals given as JSON numbers
   * already text); references, at the top or as list items, are {@link Reference}s.
   */
  readonly args: Record<string, unknown>;
  /** Whether any argument is a reference (else `args` is the whole input). */
  readonly referenced: boolean;
}

/** A recipe that passed the check. */
export interface Recipe {
  readonly steps: readonly RecipeStep[];
  /** What its literal steps declare together, reserved before any step runs. */
  readonly literalSpent: Spent;
  /** List items (and object fields) its literal arguments send. */
  readonly literalItems: number;
  readonly options: Required<RecipeOptions>;
}

/** The outcome of {@link checkRecipe}. */
export interface RecipeCheck {
  /** Every problem found, located from the source; empty when the recipe may run. */
  problems: Problem[];
  /** The known operations the steps name, in order: the surface checks scopes on them. */
  operations: AnyOperation[];
  /** The recipe, when there is no problem. */
  recipe: Recipe | undefined;
}

/** One entry of a recipe's answer. */
export interface StepAnswer {
  id: string;
  op: string;
  status: number;
  output?: unknown;
  detail?: string | Problem[];
}

/** The 200 answer of a recipe run: one entry per step, in order. */
export interface RecipeAnswer {
  steps: StepAnswer[];
}

/** The answer of `?dryRun=true`: the units the recipe would be charged, per step. */
export interface RecipePrice {
  units: number;
  steps: { id: string; op: string; units: number }[];
}

/** The operations a recipe may name, by `area/name`, with their parameters read once. */
export interface RecipeBook {
  operationOf(op: string): AnyOperation | undefined;
  paramsOf(operation: AnyOperation): ReadonlyMap<string, ParamDescription>;
}

/**
 * The book of `operations`, made once at registration.
 *
 * @example
 * const book = recipeBook(operations);
 * checkRecipe(book, { steps: [{ id: "s", op: "math/sum", args: { numbers: ["1"] } }] }, { source: "body" });
 */
export function recipeBook(operations: readonly AnyOperation[]): RecipeBook {
  const byOp = new Map<string, AnyOperation>();
  const params = new Map<AnyOperation, Map<string, ParamDescription>>();
  for (const operation of operations) {
    byOp.set(`${operation.area}/${operation.name}`, operation);
    params.set(
      operation,
      new Map(
        Object.entries(operation.input.shape).map(([name, schema]) => [
          name,
          describeParam(schema),
        ]),
      ),
    );
  }
  return {
    operationOf: (op) => byOp.get(op),
    paramsOf: (operation) => params.get(operation) ?? new Map(),
  };
}

type JsonObject = Record<string, unknown>;

function isObject(value: unknown): value is JsonObject {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

function decimalText(value: unknown): unknown {
  return typeof value === "number" && Number.isFinite(value) ? String(value) : value;
}

/**
 * A JSON value as the operation's raw input takes it: decimals given as JSON numbers
 * become their shortest text (as MCP arguments and GraphQL's `Decimal` take them), lists
 * of decimals item by item; anything else is passed on for the runner to check.
 */
function inputValue(param: ParamDescription, value: unknown): unknown {
  if (param.kind === "decimal") return decimalText(value);
  if (param.kind === "list" && param.item?.kind === "decimal" && Array.isArray(value)) {
    return value.map(decimalText);
  }
  return value;
}

const problem = (loc: string[], type: string, msg: string): Problem => ({ loc, msg, type });
const valueError = (loc: string[], msg: string): Problem => problem(loc, "value_error", msg);

/** A value that means to be a reference: an object with a `$ref` member. */
function isReferenceObject(value: unknown): value is JsonObject {
  return isObject(value) && Object.hasOwn(value, "$ref");
}

/**
 * The reference `value` (`{"$ref": "<stepId>.<path>"}`) in step `index`, or the problem
 * with it. `ids` holds every step's index by id, so a reference forward is told apart from
 * one to nothing.
 */
function readReference(
  value: JsonObject,
  index: number,
  ids: ReadonlyMap<string, number>,
  loc: string[],
): Reference | Problem {
  const ref = value.$ref;
  if (Object.keys(value).length !== 1) {
    return valueError(loc, 'Value error, a reference is {"$ref": "<stepId>.<path>"} alone');
  }
  if (typeof ref !== "string")
    return problem([...loc, "$ref"], "string_type", "Input should be a valid string");
  const dot = ref.indexOf(".");
  const id = dot < 0 ? ref : ref.slice(0, dot);
  const path = dot < 0 ? [] : ref.slice(dot + 1).split(".");
  if (path.length === 0 || path.some((segment) => segment === "")) {
    return valueError(
      [...loc, "$ref"],
      `Value error, '${ref}' is not '<stepId>.<path>': a step id, then field names and list indices separated by dots`,
    );
  }
  const target = ids.get(id);
  if (target === undefined) {
    return valueError([...loc, "$ref"], `Value error, no step has the id '${id}'`);
  }
  if (target >= index) {
    return valueError(
      [...loc, "$ref"],
      `Value error, step '${id}' does not come before this step: a reference may name an earlier step only`,
    );
  }
  return new Reference(target, id, path);
}

/**
 * Checks `body` (`{"steps": [...]}`) whole: 1 to {@link MAX_RECIPE_STEPS} steps, unique
 * ids, known operations, references to earlier steps only, every literal argument valid,
 * and the literal steps together within one request's budget. Runs nothing.
 *
 * @example
 * const { problems, recipe } = checkRecipe(book, JSON.parse(text), { source: "body" });
 */
export function checkRecipe(book: RecipeBook, body: unknown, options: RecipeOptions): RecipeCheck {
  const settings: Required<RecipeOptions> = { bytesFactor: 1, ...options };
  const { source } = settings;
  const problems: Problem[] = [];
  const operations: AnyOperation[] = [];
  const done = (): RecipeCheck => ({ problems, operations, recipe: undefined });
  if (!isObject(body)) {
    problems.push(problem([source], "dict_type", "Input should be a valid dictionary"));
    return done();
  }
  for (const name of Object.keys(body)) {
    if (name !== "steps") {
      problems.push(problem([source, name], "extra_forbidden", "Extra inputs are not permitted"));
    }
  }
  const raw = body.steps;
  const stepsLoc = [source, "steps"];
  if (raw === undefined) {
    problems.push(problem(stepsLoc, "missing", "Field required"));
    return done();
  }
  if (!Array.isArray(raw)) {
    problems.push(problem(stepsLoc, "list_type", "Input should be a valid list"));
    return done();
  }
  if (raw.length < 1 || raw.length > MAX_RECIPE_STEPS) {
    const short = raw.length < 1;
    problems.push({
      loc: stepsLoc,
      msg: short
        ? "List should have at least 1 item after validation, not 0"
        : `List should have at most ${MAX_RECIPE_STEPS} items after validation, not ${raw.length}`,
      type: short ? "too_short" : "too_long",
      ctx: short
        ? { field_type: "List", min_length: 1, actual_length: raw.length }
        : { field_type: "List", max_length: MAX_RECIPE_STEPS, actual_length: raw.length },
    });
    return done();
  }
  // Every id first, so that a reference forward is told apart from one to nothing.
  const ids = new Map<string, number>();
  raw.forEach((step, index) => {
    const id = isObject(step) ? step.id : undefined;
    if (typeof id === "string" && STEP_ID.test(id) && !ids.has(id)) ids.set(id, index);
  });
  const steps: RecipeStep[] = [];
  const literalSpent: Spent = { work: 0, bytes: 0 };
  const items = { left: MAX_LIST_ITEMS_PER_REQUEST };
  raw.forEach((step: unknown, index) => {
    const loc = [source, "steps", String(index)];
    if (!isObject(step)) {
      problems.push(problem(loc, "dict_type", "Input should be a valid dictionary"));
      return;
    }
    for (const name of Object.keys(step)) {
      if (name !== "id" && name !== "op" && name !== "args") {
        problems.push(problem([...loc, name], "extra_forbidden", "Extra inputs are not permitted"));
      }
    }
    const { id, op, args } = step;
    let stepOk = true;
    if (id === undefined) {
      problems.push(problem([...loc, "id"], "missing", "Field required"));
      stepOk = false;
    } else if (typeof id !== "string") {
      problems.push(problem([...loc, "id"], "string_type", "Input should be a valid string"));
      stepOk = false;
    } else if (!STEP_ID.test(id)) {
      problems.push({
        loc: [...loc, "id"],
        msg: `String should match pattern '${STEP_ID_PATTERN}'`,
        type: "string_pattern_mismatch",
        ctx: { pattern: STEP_ID_PATTERN },
      });
      stepOk = false;
    } else if (ids.get(id) !== index) {
      problems.push(
        valueError(
          [...loc, "id"],
          `Value error, step ${ids.get(id)} already has the id '${id}'; ids are unique`,
        ),
      );
      stepOk = false;
    }
    let operation: AnyOperation | undefined;
    if (op === undefined) {
      problems.push(problem([...loc, "op"], "missing", "Field required"));
    } else if (typeof op !== "string") {
      problems.push(problem([...loc, "op"], "string_type", "Input should be a valid string"));
    } else {
      operation = book.operationOf(op);
      if (operation === undefined) {
        problems.push(
          valueError(
            [...loc, "op"],
            `Value error, no operation '${op.length > 100 ? `${op.slice(0, 100)}…` : op}'; an operation is named '<area>/<name>', as in its path /v1/<area>/<name>`,
          ),
        );
      } else {
        operations.push(operation);
      }
    }
    if (args !== undefined && !isObject(args)) {
      problems.push(problem([...loc, "args"], "dict_type", "Input should be a valid dictionary"));
      return;
    }
    if (args !== undefined && Object.keys(args).length > MAX_STEP_ARGUMENTS) {
      problems.push(
        valueError(
          [...loc, "args"],
          `Value error, a step has at most ${MAX_STEP_ARGUMENTS} arguments`,
        ),
      );
      return;
    }
    if (operation === undefined) return;
    const checked = checkArgs(book, operation, args ?? {}, index, ids, [...loc, "args"]);
    problems.push(...checked.problems);
    if (checked.problems.length > 0 || !stepOk) return;
    for (const name in checked.args) {
      if (!checked.referencedNames.has(name)) takeSentItems(checked.args[name], items);
    }
    if (checked.cost) {
      literalSpent.work += checked.cost.work;
      literalSpent.bytes += checked.cost.bytes * settings.bytesFactor;
    }
    literalSpent.bytes += STEP_ENVELOPE_BYTES * settings.bytesFactor;
    steps.push({
      index,
      id: id as string,
      op: op as string,
      operation,
      args: checked.args,
      referenced: checked.referencedNames.size > 0,
    });
  });
  if (items.left < 0) {
    problems.push(
      valueError(
        stepsLoc,
        `Value error, the steps' arguments together send more than ${MAX_LIST_ITEMS_PER_REQUEST} list items (object fields counted); at most ${MAX_LIST_ITEMS_PER_REQUEST} per request, as in one REST request`,
      ),
    );
  }
  const over = overBudget(literalSpent);
  if (over !== undefined) {
    problems.push(valueError(stepsLoc, `Value error, the recipe's steps together: ${over}`));
  }
  if (problems.length > 0) return done();
  return {
    problems,
    operations,
    recipe: {
      steps,
      literalSpent,
      literalItems: MAX_LIST_ITEMS_PER_REQUEST - items.left,
      options: settings,
    },
  };
}

/**
 * One step's arguments: names known, references well formed and backwards, literal values
 * valid (for a step with references, only the problems of its literal arguments count:
 * what is missing or inconsistent may come with the references). A fully literal step's
 * declared cost comes back for the recipe's budget.
 */
function checkArgs(
  book: RecipeBook,
  operation: AnyOperation,
  args: JsonObject,
  index: number,
  ids: ReadonlyMap<string, number>,
  loc: string[],
): { problems: Problem[]; args: JsonObject; referencedNames: Set<string>; cost?: Cost } {
  const params = book.paramsOf(operation);
  const problems: Problem[] = [];
  const input: JsonObject = {};
  const referencedNames = new Set<string>();
  for (const name of Object.keys(args)) {
    const param = params.get(name);
    const value = args[name];
    if (param === undefined) {
      problems.push(problem([...loc, name], "extra_forbidden", "Extra inputs are not permitted"));
      continue;
    }
    if (isReferenceObject(value)) {
      const ref = readReference(value, index, ids, [...loc, name]);
      if (ref instanceof Reference) input[name] = ref;
      else problems.push(ref);
      referencedNames.add(name);
      continue;
    }
    if (Array.isArray(value) && value.some(isReferenceObject)) {
      referencedNames.add(name);
      input[name] = value.map((item, position) => {
        if (!isReferenceObject(item)) return param.item ? inputValue(param.item, item) : item;
        const ref = readReference(item, index, ids, [...loc, name, String(position)]);
        if (ref instanceof Reference) return ref;
        problems.push(ref);
        return undefined;
      });
      continue;
    }
    input[name] = inputValue(param, value);
  }
  if (referencedNames.size === 0) {
    let data = inputCheckOf(operation)(input);
    if (data === UNSURE) {
      const parsed = operation.input.safeParse(input);
      if (!parsed.success) {
        for (const found of toProblems(parsed.error.issues, operation.input, input, {
          json: true,
        })) {
          problems.push({ ...found, loc: [...loc, ...found.loc] });
        }
        return { problems, args: input, referencedNames };
      }
      data = parsed.data;
    }
    const cost = operation.cost ? operation.cost(data) : readingCost(data);
    const over = costProblem(cost);
    if (over) problems.push({ ...over, loc: [...loc, ...over.loc] });
    return { problems, args: input, referencedNames, cost };
  }
  // Literal arguments only: the referenced ones are left out, and what their absence
  // causes (a required one missing, a check across arguments) is not a problem yet.
  const literal: JsonObject = {};
  for (const name in input) if (!referencedNames.has(name)) literal[name] = input[name];
  const parsed = operation.input.safeParse(literal);
  if (!parsed.success) {
    for (const found of toProblems(parsed.error.issues, operation.input, literal, { json: true })) {
      const name = found.loc[0];
      if (name !== undefined && Object.hasOwn(literal, name)) {
        problems.push({ ...found, loc: [...loc, ...found.loc] });
      }
    }
  }
  return { problems, args: input, referencedNames };
}

/** The priced recipe, for `?dryRun=true`: one unit per step. */
export function priceRecipe(recipe: Recipe): RecipePrice {
  return {
    units: recipe.steps.length * UNITS_PER_STEP,
    steps: recipe.steps.map((step) => ({ id: step.id, op: step.op, units: UNITS_PER_STEP })),
  };
}

const CANONICAL_INDEX = /^(0|[1-9][0-9]{0,8})$/;

/** What {@link follow} answers for a path that leads nowhere. */
const MISSING: unique symbol = Symbol("missing");

/** The value at `path` inside `output`, or `missing`. */
function follow(output: unknown, path: readonly string[]): unknown {
  let value = output;
  for (const segment of path) {
    if (Array.isArray(value)) {
      if (!CANONICAL_INDEX.test(segment)) return MISSING;
      const position = Number(segment);
      if (position >= value.length) return MISSING;
      value = value[position];
    } else if (isObject(value) && Object.hasOwn(value, segment)) {
      value = value[segment];
    } else {
      return MISSING;
    }
  }
  return value;
}

/** A step's arguments with its references replaced by the values they name. */
function resolve(
  step: RecipeStep,
  params: ReadonlyMap<string, ParamDescription>,
  outputs: readonly unknown[],
  loc: string[],
): { input: JsonObject; problems: Problem[] } {
  const input: JsonObject = {};
  const problems: Problem[] = [];
  const referenced = (ref: Reference, at: string[]): unknown => {
    const value = follow(outputs[ref.step], ref.path);
    if (value === MISSING) {
      problems.push(
        valueError(
          at,
          `Value error, the output of step '${ref.id}' has nothing at '${ref.path.join(".")}'`,
        ),
      );
    }
    return value;
  };
  for (const name in step.args) {
    const param = params.get(name) as ParamDescription;
    const value = step.args[name];
    if (value instanceof Reference) {
      input[name] = inputValue(param, referenced(value, [...loc, name]));
    } else if (Array.isArray(value) && step.referenced) {
      // Copied: a list from an earlier output is that output's own, not to be shared.
      input[name] = value.map((item, position) =>
        item instanceof Reference
          ? param.item
            ? inputValue(param.item, referenced(item, [...loc, name, String(position)]))
            : referenced(item, [...loc, name, String(position)])
          : item,
      );
    } else {
      input[name] = value;
    }
  }
  return { input, problems };
}

/** The step a referencing step depends on that did not answer 200, if any. */
function failedDependency(
  step: RecipeStep,
  answers: readonly StepAnswer[],
): StepAnswer | undefined {
  for (const name in step.args) {
    const value = step.args[name];
    const refs = value instanceof Reference ? [value] : Array.isArray(value) ? value : [];
    for (const ref of refs) {
      if (ref instanceof Reference && answers[ref.step]?.status !== 200) return answers[ref.step];
    }
  }
  return undefined;
}

/** What {@link runRecipe} answers, with the answer bytes its steps declared. */
export interface RecipeRun {
  answer: RecipeAnswer;
  /** Answer bytes declared by the steps that ran, envelopes included. */
  bytes: number;
}

/**
 * Runs a checked recipe: each step through `run`, as REST runs its operation; references
 * resolved into the outputs of earlier steps as they are. A step whose resolved input is
 * invalid, or would take the recipe past its budget, answers 422 and is not run; a step
 * referring to a step that did not answer 200 answers 424 and is not run; the others run.
 * `onFault` hears about unexpected errors (the step answers 500).
 *
 * @example
 * const { answer } = runRecipe(book, recipe, execute, () => {});
 */
export function runRecipe(
  book: RecipeBook,
  recipe: Recipe,
  run: Runner,
  onFault: (error: unknown) => void,
): RecipeRun {
  const { source, bytesFactor } = recipe.options;
  // The literal steps' costs are reserved first: what the check accepted still fits.
  const spent: Spent = { ...recipe.literalSpent };
  const items = { left: MAX_LIST_ITEMS_PER_REQUEST - recipe.literalItems };
  const outputs: unknown[] = [];
  const answers: StepAnswer[] = [];
  for (const step of recipe.steps) {
    const { id, op, operation } = step;
    const loc = [source, "steps", String(step.index), "args"];
    const answerOf = (status: number, rest: Partial<StepAnswer>): StepAnswer => ({
      id,
      op,
      status,
      ...rest,
    });
    let input = step.args;
    if (step.referenced) {
      const failed = failedDependency(step, answers);
      if (failed !== undefined) {
        answers.push(
          answerOf(424, {
            detail: `Failed Dependency: step '${failed.id}' answered ${failed.status}; this step was not run`,
          }),
        );
        continue;
      }
      const resolved = resolve(step, book.paramsOf(operation), outputs, loc);
      if (resolved.problems.length > 0) {
        answers.push(answerOf(422, { detail: resolved.problems }));
        continue;
      }
      input = resolved.input;
      const refused = overRecipeBudget(operation, input, spent, items, bytesFactor);
      if (refused !== undefined) {
        answers.push(answerOf(422, { detail: [valueError(loc, refused)] }));
        continue;
      }
      spent.bytes += STEP_ENVELOPE_BYTES * bytesFactor;
    }
    try {
      const output = run(operation, input, []);
      outputs[step.index] = output;
      answers.push(answerOf(200, { output }));
    } catch (error) {
      if (error instanceof InvalidInputError) {
        answers.push(
          answerOf(422, {
            detail: error.problems.map((found) => ({ ...found, loc: [...loc, ...found.loc] })),
          }),
        );
      } else if (error instanceof NotFoundError) {
        answers.push(answerOf(404, { detail: error.message }));
      } else {
        onFault(error);
        answers.push(answerOf(500, { detail: "Internal Server Error" }));
      }
    }
  }
  return { answer: { steps: answers }, bytes: spent.bytes };
}

/**
 * Why a referencing step, its input resolved, would take the recipe past one request's
 * budget (work, answer bytes, list items sent), or undefined; when it fits, its cost is
 * added to `spent` and `items`. An invalid input is charged what refusing it costs.
 */
function overRecipeBudget(
  operation: AnyOperation,
  input: JsonObject,
  spent: Spent,
  items: { left: number },
  bytesFactor: number,
): string | undefined {
  const sent = { left: items.left };
  for (const name in input) takeSentItems(input[name], sent);
  if (sent.left < 0) {
    return `Value error, with this step the recipe's steps together send more than ${MAX_LIST_ITEMS_PER_REQUEST} list items; at most ${MAX_LIST_ITEMS_PER_REQUEST} per request`;
  }
  const cost = declaredCost(operation, input) ?? refusalCost(input);
  const total = { work: spent.work + cost.work, bytes: spent.bytes + cost.bytes * bytesFactor };
  const over = overBudget(total);
  if (over !== undefined) return `Value error, with this step the recipe's steps together: ${over}`;
  items.left = sent.left;
  spent.work = total.work;
  spent.bytes = total.bytes;
  return undefined;
}
