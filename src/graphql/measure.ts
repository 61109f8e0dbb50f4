/**
 * What a GraphQL document asks for, measured once from its syntax tree: the operation
 * fields it runs (for the request limits and the quota) and its nesting depth.
 */
import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";

/**
 * `__schema` and `__type` answer from the schema, not from an operation: they are neither
 * counted as operation fields nor measured for depth, so introspection (GraphiQL's is 13
 * levels deep) keeps working. They are counted apart: each answers up to the whole schema.
 */
const isIntrospectionRoot = (field: FieldNode) =>
  field.name.value === "__schema" || field.name.value === "__type";

export interface DocumentMeasure {
  /**
   * Fields two levels down, under the area fields, in the largest operation: a request
   * runs one operation of its document, as the budget counts it.
   */
  operationFields: number;
  /** The deepest field nesting of any operation. */
  depth: number;
  /** `__schema` and `__type` fields, aliases and fragment spreads counted, in the largest operation. */
  introspectionFields: number;
  /**
   * Aliased fields below `__schema` and `__type` (fragments spread counted each time). An
   * alias there repeats part of the schema in the answer: n aliases on three levels ask for
   * n³ copies (20 made a 1.5 KB document that exhausted the heap), where without aliases
   * the answer is bounded by the schema itself and graphql's introspection depth rule.
   */
  introspectionAliases: number;
  /**
   * Every field selected, at every level (introspection included), fragments expanded where
   * they are spread, in the largest operation: what graphql-jit compiles code for.
   */
  selectedFields: number;
}

/**
 * Measures `operation` of `document` (every operation when none is given: the largest
 * figure of any) with fragments expanded where they are spread. Each fragment is
 * measured once (memoised), so a document that spreads fragments inside fragments costs
 * time linear in its size even when its expansion would be exponential; fragment cycles
 * (refused by the standard rules anyway) count as empty.
 *
 * @example
 * measureDocument(parse("{ a: math { sum(numbers: [1]) { decimal } } b: math { sum(numbers: [2]) { decimal } } }"));
 * // { operationFields: 2, depth: 3, introspectionFields: 0, introspectionAliases: 0, selectedFields: 6 }
 */
export function measureDocument(
  document: DocumentNode,
  operation?: OperationDefinitionNode,
): DocumentMeasure {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) {
      fragments.set(definition.name.value, definition);
    }
  }
  const memo = new Map<string, number>();
  const busy = new Set<string>();

  function viaFragment(name: string, key: string, measure: (set: SelectionSetNode) => number) {
    const known = memo.get(key);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    if (!fragment || busy.has(key)) return 0;
    busy.add(key);
    const value = measure(fragment.selectionSet);
    busy.delete(key);
    memo.set(key, value);
    return value;
  }

  function depthOf(set: SelectionSetNode): number {
    let deepest = 0;
    for (const selection of set.selections) {
      let depth = 0;
      if (selection.kind === Kind.FIELD) {
        if (isIntrospectionRoot(selection)) continue;
        depth = 1 + (selection.selectionSet ? depthOf(selection.selectionSet) : 0);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        depth = depthOf(selection.selectionSet);
      } else {
        const name = selection.name.value;
        depth = viaFragment(name, `depth:${name}`, depthOf);
      }
      deepest = Math.max(deepest, depth);
    }
    return deepest;
  }

  /**
   * `ofField` added up over the fields of `set`, through inline fragments and fragment
   * spreads (each fragment's sum memoised under `kind`).
   */
  function sumOverFields(
    set: SelectionSetNode,
    kind: string,
    ofField: (field: FieldNode) => number,
  ): number {
    let count = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        count += ofField(selection);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        count += sumOverFields(selection.selectionSet, kind, ofField);
      } else {
        const name = selection.name.value;
        count += viaFragment(name, `${kind}:${name}`, (s) => sumOverFields(s, kind, ofField));
      }
    }
    return count;
  }

  /** Fields `level` levels below `set` (0: its own fields). */
  const fieldsAt = (set: SelectionSetNode, level: number): number =>
    sumOverFields(set, `fields${level}`, (field) =>
      isIntrospectionRoot(field)
        ? 0
        : level === 0
          ? 1
          : field.selectionSet
            ? fieldsAt(field.selectionSet, level - 1)
            : 0,
    );

  /** Introspection fields among `set`'s own fields (they are valid only at the root). */
  const introspectionAt = (set: SelectionSetNode): number =>
    sumOverFields(set, "introspection", (field) => (isIntrospectionRoot(field) ? 1 : 0));

  /** Aliased fields anywhere below `set`. */
  const aliasesIn = (set: SelectionSetNode): number =>
    sumOverFields(
      set,
      "aliases",
      (field) =>
        (field.alias && field.alias.value !== field.name.value ? 1 : 0) +
        (field.selectionSet ? aliasesIn(field.selectionSet) : 0),
    );

  /** Aliased fields below the introspection fields among `set`'s own. */
  const introspectionAliasesAt = (set: SelectionSetNode): number =>
    sumOverFields(set, "introspectionAliases", (field) =>
      isIntrospectionRoot(field) && field.selectionSet ? aliasesIn(field.selectionSet) : 0,
    );

  /** Fields at every level below `set`, its own included. */
  const selectedIn = (set: SelectionSetNode): number =>
    sumOverFields(
      set,
      "selected",
      (field) => 1 + (field.selectionSet ? selectedIn(field.selectionSet) : 0),
    );

  let operationFields = 0;
  let depth = 0;
  let selectedFields = 0;
  let introspectionFields = 0;
  let introspectionAliases = 0;
  for (const definition of operation ? [operation] : document.definitions) {
    if (definition.kind !== Kind.OPERATION_DEFINITION) continue;
    operationFields = Math.max(operationFields, fieldsAt(definition.selectionSet, 1));
    depth = Math.max(depth, depthOf(definition.selectionSet));
    introspectionFields = Math.max(introspectionFields, introspectionAt(definition.selectionSet));
    introspectionAliases += introspectionAliasesAt(definition.selectionSet);
    selectedFields = Math.max(selectedFields, selectedIn(definition.selectionSet));
  }
  return { operationFields, depth, introspectionFields, introspectionAliases, selectedFields };
}
