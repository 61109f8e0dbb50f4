/**
 * The request budget: what the operations of one request declare they will produce and
 * spend (their `cost`), against {@link REQUEST_BUDGET}. REST checks one calculation in
 * the runner; GraphQL adds up every field of a document first (graphql/budget.ts).
 */
import { type Cost, REQUEST_BUDGET, readingCost } from "../kit/cost.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { inputCheckOf, UNSURE } from "./compile-input.js";

/**
 * List items one request may send across all its calculations (GraphQL fields, the calls
 * of an MCP batch): as many as one REST request may. Refusing 10,000 invalid items is about
 * 30 ms of zod's work: without this bound, one small body could ask for that many times.
 */
export const MAX_LIST_ITEMS_PER_REQUEST = 10_000;

/**
 * Takes `value`'s list items and object fields, nested ones included, from `budget.left`,
 * stopping once it is spent: what a request sends, counted on the JSON as received, before
 * anything coerces or validates it. Objects count too: graphql writes a refused object
 * whole into its error (100,000 keys: ~400 ms and a 1.9 MB answer), and zod lists each
 * unknown name as a problem.
 *
 * @example
 * const budget = { left: MAX_LIST_ITEMS_PER_REQUEST };
 * takeSentItems(["1", "2"], budget); // budget.left === 9_998
 */
export function takeSentItems(value: unknown, budget: { left: number }, depth = 0): void {
  if (typeof value !== "object" || value === null || depth > 8) return;
  if (Array.isArray(value)) {
    budget.left -= value.length;
    for (let index = 0; index < value.length && budget.left >= 0; index++) {
      const item: unknown = value[index];
      if (typeof item === "object") takeSentItems(item, budget, depth + 1);
    }
    return;
  }
  for (const key in value) {
    if (--budget.left < 0) return;
    const entry = (value as Record<string, unknown>)[key];
    if (typeof entry === "object") takeSentItems(entry, budget, depth + 1);
  }
}

/** Running totals of a request's declared costs. */
export interface Spent {
  work: number;
  bytes: number;
}

// Read once: a comparison with module constants needs no property load, whose type
// feedback V8 lost again and again here, deoptimising the runner (docs/performance.md).
const BUDGET_BYTES = REQUEST_BUDGET.bytes;
const BUDGET_WORK = REQUEST_BUDGET.work;

/**
 * Why `spent` is over the budget, in one sentence, or undefined when it fits.
 *
 * @example
 * overBudget({ work: 1, bytes: 5_000_000 }); // "…answer of about 5000000 bytes…"
 */
export function overBudget(spent: Spent): string | undefined {
  if (spent.bytes > BUDGET_BYTES) {
    return `the answer would take about ${Math.ceil(spent.bytes)} bytes; one request may produce at most ${BUDGET_BYTES}`;
  }
  if (spent.work > BUDGET_WORK) {
    return `the calculation would take about ${Math.ceil(spent.work)} digit operations; one request may ask for at most ${BUDGET_WORK}`;
  }
  return undefined;
}

/**
 * The problem to report when one calculation on its own is over the budget, or
 * undefined. Called by the runner with the validated input, before the handler.
 */
export function budgetProblem(operation: AnyOperation, input: unknown): Problem | undefined {
  if (!operation.cost) return undefined;
  const cost = operation.cost(input);
  const problem = costProblem(cost);
  // A refused calculation answers its (small) problem, not what it declared.
  declaredAnswer.bytes = problem === undefined ? cost.bytes : 0;
  return problem;
}

/**
 * The answer size the calculation the runner checked last declared (its cost's `bytes`; 0
 * once read, or for an operation that declares none). The heavy lane (http/heavy-lane.ts)
 * reads it when a REST handler's output is about to be serialised: a plain slot, not one per
 * request, as the runner, the handler and the hand-over of its output to the serialiser run
 * in one synchronous stretch.
 */
export const declaredAnswer = { bytes: 0 };

/** The problem to report for a calculation whose declared `cost` is over the budget, or undefined. */
export function costProblem(cost: Cost): Problem | undefined {
  const reason = overBudget(cost);
  if (reason === undefined) return undefined;
  return { loc: cost.loc ?? [], msg: `Value error, ${reason}`, type: "value_error" };
}

/**
 * What refusing an invalid raw `input` costs: zod reads all of it to list every problem,
 * about four times what reading a valid one costs (3.1–3.6 µs per invalid list item,
 * measured, against `ITEM_WORK`'s microsecond). GraphQL and MCP charge it for calls whose
 * input does not validate, so a request of many invalid calls is bounded like any other.
 */
export function refusalCost(input: Record<string, unknown>): Cost {
  return { work: 4 * readingCost(input).work, bytes: 0 };
}

/**
 * What `operation` declares a raw `input` (as a gateway received it) will cost (reading it,
 * {@link readingCost}, when it declares nothing), or undefined when the input is invalid
 * (the runner refuses that input on its own). Read as the runner reads it: the compiled
 * check, zod only for what that cannot vouch for. GraphQL and MCP add these up for a whole
 * request.
 */
export function declaredCost(
  operation: AnyOperation,
  input: Record<string, unknown>,
): Cost | undefined {
  let data = inputCheckOf(operation)(input);
  if (data === UNSURE) {
    const parsed = operation.input.safeParse(input);
    if (!parsed.success) return undefined;
    data = parsed.data;
  }
  return operation.cost ? operation.cost(data) : readingCost(data);
}

/**
 * What a gateway charges one calculation of a request (a GraphQL field, an MCP call): what
 * its operation declares for a valid `input`, else what refusing it costs. So a request of
 * many invalid calculations is bounded like any other.
 */
export function chargedCost(operation: AnyOperation, input: Record<string, unknown>): Cost {
  return declaredCost(operation, input) ?? refusalCost(input);
}
