/**
 * The request budget for GraphQL: the declared costs (see `cost` on `defineOperation`;
 * reading the input for an operation that declares none) of every operation field of a
 * document, added up with the request's variables before any field runs. A document over the budget is refused whole, as the other limits are
 * (HTTP 400, `extensions.code: "LIMIT_EXCEEDED"`). A single field is left to the runner,
 * which refuses it as invalid input, exactly as REST does.
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getArgumentValues,
  getNamedType,
  getOperationAST,
  getVariableValues,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  print,
  type SelectionSetNode,
  type ValueNode,
} from "graphql";
import { chargedCost, MAX_LIST_ITEMS_PER_REQUEST, overBudget, type Spent } from "../core/budget.js";
import { type Cost, REQUEST_BUDGET } from "../kit/cost.js";
import type { AnyOperation } from "../kit/define.js";
import { limitError } from "./limits.js";
import { graphqlFieldOf } from "./names.js";

/** One operation field of a document whose operation declares a cost. */
interface Site {
  operation: AnyOperation;
  // biome-ignore lint/suspicious/noExplicitAny: graphql's own field type, any source
  field: GraphQLField<any, any>;
  node: FieldNode;
  /** Whether its arguments refer to variables; if not, its cost is the same every request. */
  variable: boolean;
  /** That cost once worked out (null: arguments that do not coerce or validate). */
  fixed: Cost | null | undefined;
}

/** Whether a value refers to a variable anywhere inside it. */
function hasVariable(value: ValueNode): boolean {
  switch (value.kind) {
    case Kind.VARIABLE:
      return true;
    case Kind.LIST:
      return value.values.some(hasVariable);
    case Kind.OBJECT:
      return value.fields.some((field) => hasVariable(field.value));
    default:
      return false;
  }
}

const NO_VARIABLES: Record<string, unknown> = Object.freeze({}) as Record<string, unknown>;

/** The costed fields of one operation of a document (with its variable definitions). */
export interface CostedFields {
  definition: OperationDefinitionNode | null;
  sites: Site[];
  /**
   * For each site, the index of the first site that costs the same: the same operation with
   * the same arguments (a fragment spread again, or aliases passing the same variables).
   * Its cost is worked out once per request, so one large variable is not read per alias.
   */
  same: Int32Array;
}

const NONE: CostedFields = Object.freeze({
  definition: null,
  sites: [],
  same: new Int32Array(0),
}) as CostedFields;

/**
 * What makes two sites cost the same: the operation and its arguments, each a variable's
 * name or a literal. Null for arguments with variables inside a list or object (rare, and
 * bounded by the document's token limit): such a site is costed on its own.
 */
function argumentsKey(site: Site): string | null {
  let key = `${site.operation.area}/${site.operation.name}`;
  for (const argument of site.node.arguments ?? []) {
    const value = argument.value;
    if (value.kind === Kind.VARIABLE) key += ` ${argument.name.value}=$${value.name.value}`;
    else if (hasVariable(value)) return null;
    else key += ` ${argument.name.value}=${print(value)}`;
  }
  return key;
}

/** {@link CostedFields.same} for `sites`. */
function sameCosts(sites: Site[]): Int32Array {
  const same = new Int32Array(sites.length);
  const first = new Map<string | Site, number>();
  for (let i = 0; i < sites.length; i++) {
    const site = sites[i] as Site;
    const key = argumentsKey(site) ?? site;
    const known = first.get(key);
    if (known === undefined) first.set(key, i);
    same[i] = known ?? i;
  }
  return same;
}

/**
 * Finds, once per document, the fields whose cost must be added per request, and adds
 * them up with each request's variables.
 *
 * @example
 * const budget = createBudget(schema, operations);
 * const error = budget.check(budget.fieldsOf(document, undefined), variables);
 */
export function createBudget(schema: GraphQLSchema, operations: readonly AnyOperation[]) {
  // Query field → area field → operation (each costs at least the reading of its input).
  const costed = new Map<string, Map<string, AnyOperation>>();
  for (const operation of operations) {
    const { area, field } = graphqlFieldOf(operation);
    let fields = costed.get(area);
    if (!fields) {
      fields = new Map();
      costed.set(area, fields);
    }
    fields.set(field, operation);
  }
  const queryFields = schema.getQueryType()?.getFields() ?? {};
  const byDocument = new WeakMap<DocumentNode, Map<string | undefined, CostedFields>>();

  /** Fragments are walked once each (memoised), so nested spreads cost linear time. */
  function collect(document: DocumentNode, definition: OperationDefinitionNode): Site[] {
    const fragments = new Map<string, FragmentDefinitionNode>();
    for (const node of document.definitions) {
      if (node.kind === Kind.FRAGMENT_DEFINITION) fragments.set(node.name.value, node);
    }
    const memo = new Map<string, Site[]>();
    const viaFragment = (key: string, name: string, walk: (set: SelectionSetNode) => Site[]) => {
      const known = memo.get(key);
      if (known) return known;
      memo.set(key, []); // a cycle (refused by validation anyway) counts as empty
      const fragment = fragments.get(name);
      const sites = fragment ? walk(fragment.selectionSet) : [];
      memo.set(key, sites);
      return sites;
    };
    function inArea(area: string, set: SelectionSetNode): Site[] {
      const sites: Site[] = [];
      const areaType = getNamedType(queryFields[area]?.type);
      const fields = isObjectType(areaType) ? areaType.getFields() : {};
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const operation = costed.get(area)?.get(selection.name.value);
          const field = fields[selection.name.value];
          if (operation && field) {
            const variable = selection.arguments?.some((arg) => hasVariable(arg.value)) ?? false;
            sites.push({ operation, field, node: selection, variable, fixed: undefined });
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          sites.push(...inArea(area, selection.selectionSet));
        } else {
          const name = selection.name.value;
          sites.push(...viaFragment(`${area}:${name}`, name, (s) => inArea(area, s)));
        }
      }
      return sites;
    }
    function inQuery(set: SelectionSetNode): Site[] {
      const sites: Site[] = [];
      for (const selection of set.selections) {
        if (selection.kind === Kind.FIELD) {
          const area = selection.name.value;
          if (costed.has(area) && selection.selectionSet) {
            sites.push(...inArea(area, selection.selectionSet));
          }
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          sites.push(...inQuery(selection.selectionSet));
        } else {
          const name = selection.name.value;
          sites.push(...viaFragment(`:${name}`, name, inQuery));
        }
      }
      return sites;
    }
    return inQuery(definition.selectionSet);
  }

  /** The costed fields of the operation a request runs; worked out once per document. */
  function fieldsOf(document: DocumentNode, operationName: string | undefined): CostedFields {
    if (costed.size === 0) return NONE;
    let byName = byDocument.get(document);
    const known = byName?.get(operationName);
    if (known) return known;
    const definition = getOperationAST(document, operationName);
    const sites = definition?.operation === "query" ? collect(document, definition) : [];
    // One field is the runner's to refuse, with REST's 422 shape (BAD_USER_INPUT here).
    const found =
      sites.length > 1 && definition ? { definition, sites, same: sameCosts(sites) } : NONE;
    if (!byName) {
      byName = new Map();
      byDocument.set(document, byName);
    }
    byName.set(operationName, found);
    return found;
  }

  /**
   * The refusal for a request whose fields together pass the budget, or undefined. A field
   * whose arguments do not validate is charged for refusing them (`refusalCost`: finding
   * every problem reads every item); one whose arguments do not coerce counts for nothing (it fails on
   * its own, before anything is read). Once the fields' variables have sent
   * {@link MAX_LIST_ITEMS_PER_REQUEST} list items, later fields are not read here either:
   * they fail at execution before running (resolve.ts), so the budget never reads more
   * than one request's worth of items.
   */
  function check(
    fields: CostedFields,
    variables: Record<string, unknown> | null | undefined,
  ): GraphQLError | undefined {
    if (fields.definition === null) return undefined;
    const definitions = fields.definition.variableDefinitions ?? [];
    let values = NO_VARIABLES;
    if (definitions.length > 0) {
      const coerced = getVariableValues(schema, definitions, variables ?? {}, { maxErrors: 1 });
      if (coerced.errors) return undefined;
      values = coerced.coerced;
    }
    const spent: Spent = { work: 0, bytes: 0 };
    const items = { left: MAX_LIST_ITEMS_PER_REQUEST };
    // A field without variables costs the same every request, and fields that cost the
    // same as an earlier one take its cost: each worked out once.
    const { sites, same } = fields;
    const costs: (Cost | null)[] = new Array(sites.length);
    for (let i = 0; i < sites.length; i++) {
      const site = sites[i] as Site;
      const first = same[i] as number;
      let cost: Cost | null | undefined = first < i ? costs[first] : site.fixed;
      if (cost === undefined) {
        cost = costOf(site, values, items);
        if (!site.variable) site.fixed = cost;
      }
      costs[i] = cost;
      if (cost === null) continue;
      spent.work += cost.work;
      spent.bytes += cost.bytes;
      const reason = overBudget(spent);
      if (reason !== undefined) return refusal(reason, spent);
    }
    return undefined;
  }

  /**
   * What one field will spend with these variables: what its operation declares, or
   * refusing its arguments when they are invalid; null when they do not coerce, or when
   * they would take the request past its list items (`items`, shared by its fields).
   */
  function costOf(
    site: Site,
    values: Record<string, unknown>,
    items: { left: number },
  ): Cost | null {
    let args: Record<string, unknown>;
    try {
      args = getArgumentValues(site.field, site.node, values);
    } catch {
      return null;
    }
    const input: Record<string, unknown> = {};
    for (const name in args) {
      const value = args[name];
      if (value === null) continue;
      input[name] = value;
      // Lists written in the document are bounded by its token limit; variables are not.
      if (site.variable && Array.isArray(value)) items.left -= value.length;
    }
    if (items.left < 0) return null;
    return chargedCost(site.operation, input);
  }

  function refusal(reason: string, spent: Spent): GraphQLError {
    return limitError(
      `Over the request budget: ${reason} (its operation fields together; at most ${REQUEST_BUDGET.bytes} bytes of answer and ${REQUEST_BUDGET.work} digit operations per request). Split the request.`,
      "budget",
      spent.bytes > REQUEST_BUDGET.bytes ? REQUEST_BUDGET.bytes : REQUEST_BUDGET.work,
    );
  }

  return { fieldsOf, check };
}

export type Budget = ReturnType<typeof createBudget>;
