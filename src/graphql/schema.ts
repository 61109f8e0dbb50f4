/**
 * The GraphQL schema, generated from the operation registry with Pothos: nothing here is
 * written per operation. `Query` has one field per area; an area's object type has one
 * field per operation, whose arguments come from the input schema (read back with
 * `describeParam`, as REST does) and whose result type is walked from the output schema.
 * Every resolver calls the one runner, `execute`, as the REST routes do.
 */
import SchemaBuilder from "@pothos/core";
import { GraphQLError, type GraphQLSchema } from "graphql";
import { z } from "zod";
import { execute, InvalidInputError, NotFoundError, type Runner } from "../core/runner.js";
import { locate } from "../http/errors.js";
import type { AnyOperation } from "../kit/define.js";
import type { Problem } from "../kit/errors.js";
import { describeParam, type ParamDescription } from "../kit/params.js";
import { DecimalScalar, SafeIntScalar } from "./scalars.js";

interface SchemaTypes {
  Scalars: {
    Decimal: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
  };
}

type Builder = PothosSchemaTypes.SchemaBuilder<PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>>;

/**
 * A type as Pothos takes it in `t.field`/`t.arg`: a scalar's name or a type ref, or a
 * one-element array of those for a list.
 */
type TypeParam = string | object;
type Nullability = boolean | { list: boolean; items: boolean };

interface OutputType {
  type: TypeParam | [TypeParam];
  nullable: Nullability;
}

/**
 * The parts of Pothos' field and argument builders used here. Pothos types fields from
 * static shapes; these shapes are only known at start, so the options are built as data.
 */
interface FieldOptions {
  type: TypeParam | [TypeParam];
  nullable: Nullability;
  description?: string;
  args?: Record<string, unknown>;
  resolve: (parent: never, args: Record<string, unknown>, context: ResolverContext) => unknown;
}
interface LooseFieldBuilder {
  field(options: FieldOptions): unknown;
  arg(options: {
    type: TypeParam | [TypeParam];
    required: boolean | { list: boolean; items: boolean };
    description?: string;
    defaultValue?: unknown;
  }): unknown;
}
type FieldsOf = (t: LooseFieldBuilder) => Record<string, unknown>;

/** What a GraphQL name may be; enum values must also not be `true`, `false` or `null`. */
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

function words(text: string): string[] {
  return text.split(/[-/_]+/).filter(Boolean);
}

const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

/**
 * A path segment or parameter name in camelCase, with `/` and `-` removed.
 *
 * @example
 * camelCase("checksum/md5"); // "checksumMd5"
 * camelCase("is-leap-year"); // "isLeapYear"
 */
export function camelCase(text: string): string {
  const [first = "", ...rest] = words(text);
  return first + rest.map(capitalize).join("");
}

/**
 * The same in PascalCase, for type names.
 *
 * @example
 * pascalCase("text/sentiment"); // "TextSentiment"
 */
export function pascalCase(text: string): string {
  return words(text).map(capitalize).join("");
}

/**
 * The `<area>` field name of an operation on `Query`, and its own field name there.
 *
 * @example
 * graphqlFieldOf({ area: "crypto", name: "checksum/md5" }); // { area: "crypto", field: "checksumMd5" }
 */
export function graphqlFieldOf(operation: Pick<AnyOperation, "area" | "name">): {
  area: string;
  field: string;
} {
  return { area: camelCase(operation.area), field: camelCase(operation.name) };
}

/** Wrappers that change neither the GraphQL type nor the value a client sees. */
const TRANSPARENT = new Set(["default", "prefault", "readonly", "catch", "nonoptional"]);

interface ZodDef {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  entries?: Record<string, string | number>;
  values?: unknown[];
  in?: z.ZodType;
  out?: z.ZodType;
  defaultValue?: unknown;
}

const defOf = (schema: z.ZodType) => schema._zod.def as unknown as ZodDef;

/** The first `.describe()`/`.meta()` description met walking in through the wrappers. */
function descriptionOf(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const description = z.globalRegistry.get(current)?.description;
    if (description) return description;
    const def = defOf(current);
    current = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
  }
  return undefined;
}

/** The zod `.default()` of a parameter, if it has one. */
function defaultOf(schema: z.ZodType): { value: unknown } | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const def = defOf(current);
    if (def.type === "default") return { value: def.defaultValue };
    current = def.innerType;
  }
  return undefined;
}

const isEnumName = (value: string) =>
  GRAPHQL_NAME.test(value) && value !== "true" && value !== "false" && value !== "null";

/**
 * Generates the types, keeping names unique: a name asked for twice gets a number, unless
 * it is the same enum again (an input and an output `encoding` share one type).
 */
class TypeFactory {
  private readonly names = new Set<string>(["Query", "Decimal", "SafeInt"]);
  private readonly enums = new Map<string, { values: string; ref: object }>();

  constructor(private readonly builder: Builder) {}

  uniqueName(base: string): string {
    let name = base;
    for (let n = 2; this.names.has(name); n += 1) name = `${base}${n}`;
    this.names.add(name);
    return name;
  }

  /**
   * A GraphQL enum when every value is a valid enum name, else `String`. Each value says
   * it is the same word in REST, so a reader of the schema alone knows the mapping.
   */
  enumOrString(name: string, values: readonly string[], description?: string): TypeParam {
    if (values.length === 0 || !values.every(isEnumName)) return "String";
    const key = values.join("\n");
    const known = this.enums.get(name);
    if (known?.values === key) return known.ref;
    const unique = this.uniqueName(name);
    const ref = this.builder.enumType(unique, {
      description: description ?? `One of ${values.map((value) => `\`${value}\``).join(", ")}.`,
      values: Object.fromEntries(
        values.map((value) => [value, { description: `\`${value}\`, as in REST and JSON.` }]),
      ),
    });
    this.enums.set(unique, { values: key, ref });
    return ref;
  }

  /** The GraphQL type of an output schema; `name` names the types generated for it. */
  output(schema: z.ZodType, name: string, where: string): OutputType {
    let current = schema;
    let nullable = false;
    for (;;) {
      const def = defOf(current);
      if ((def.type === "nullable" || def.type === "optional") && def.innerType) {
        nullable = true;
        current = def.innerType;
      } else if (TRANSPARENT.has(def.type) && def.innerType) {
        current = def.innerType;
      } else if (def.type === "pipe" && def.out) {
        current = def.out;
      } else break;
    }
    const def = defOf(current);
    if (def.type === "array" && def.element) {
      const item = this.output(def.element, `${name}Item`, `${where}[]`);
      if (Array.isArray(item.type)) {
        throw new TypeError(`${where}: lists of lists cannot be carried in GraphQL`);
      }
      return { type: [item.type], nullable: { list: nullable, items: item.nullable === true } };
    }
    return { type: this.leaf(current, def, name, where), nullable };
  }

  private leaf(schema: z.ZodType, def: ZodDef, name: string, where: string): TypeParam {
    switch (def.type) {
      case "string":
        return "String";
      case "boolean":
        return "Boolean";
      case "number": {
        if (!(schema as z.ZodNumber).isInt) return "Float";
        return describeParam(schema).fits32Bits ? "Int" : "SafeInt";
      }
      case "enum":
        return this.enumOrString(
          name,
          Object.values(def.entries ?? {}).map(String),
          descriptionOf(schema),
        );
      case "literal": {
        const values = def.values ?? [];
        if (values.every((v) => typeof v === "string")) return "String";
        if (values.every((v) => typeof v === "boolean")) return "Boolean";
        if (values.every((v) => typeof v === "number")) {
          return values.every((v) => Number.isInteger(v) && Math.abs(v as number) < 2 ** 31)
            ? "Int"
            : "Float";
        }
        break;
      }
      case "object":
        return this.object(def.shape ?? {}, name, where, descriptionOf(schema));
    }
    throw new TypeError(`${where}: a zod '${def.type}' cannot be carried in GraphQL`);
  }

  /** An object type whose fields are the schema's; an empty object gets a placeholder. */
  object(
    shape: Record<string, z.ZodType>,
    base: string,
    where: string,
    description?: string,
  ): object {
    const name = this.uniqueName(base);
    // Without a description of its own, a type says where it comes from.
    const said =
      description ??
      (where.includes(".")
        ? `Part of the result of \`${where.split(".")[0]}\`: \`${where}\`.`
        : `The result of \`${where}\` (REST: \`GET /v1/${where}\`).`);
    const fields = Object.entries(shape).map(([key, schema]) => ({
      key,
      description: descriptionOf(schema),
      ...this.output(schema, `${name}${capitalize(key)}`, `${where}.${key}`),
    }));
    const ref = this.builder.objectRef<Record<string, unknown>>(name);
    const implement = ref.implement as unknown as (options: {
      description?: string;
      fields: FieldsOf;
    }) => void;
    implement.call(ref, {
      description: said,
      fields: (t) => {
        if (fields.length === 0) {
          // GraphQL object types need a field; a result with none still gets its own type.
          return {
            _empty: t.field({
              type: "Boolean",
              nullable: true,
              description: "This result has no fields; always null.",
              resolve: () => null,
            }),
          };
        }
        return Object.fromEntries(
          fields.map((field) => [
            field.key,
            t.field({
              type: field.type,
              nullable: field.nullable,
              description: field.description,
              resolve: (parent: Record<string, unknown>) => parent[field.key],
            }),
          ]),
        );
      },
    });
    return ref;
  }

  /** The GraphQL type of one parameter; `description` is the parameter's. */
  input(param: ParamDescription, name: string, description?: string): TypeParam | [TypeParam] {
    switch (param.kind) {
      case "decimal":
        return "Decimal";
      case "integer":
        return param.fits32Bits ? "Int" : "SafeInt";
      case "boolean":
        return "Boolean";
      case "string":
        return "String";
      case "enum":
        return this.enumOrString(name, param.values ?? [], description);
      case "list": {
        if (!param.item) throw new TypeError(`${name}: a list without an item type`);
        const item = this.input(param.item, `${name}Item`, description);
        if (Array.isArray(item)) throw new TypeError(`${name}: lists of lists are not supported`);
        return [item];
      }
    }
  }
}

/** Whether a zod default can be written as a GraphQL default of the parameter's type. */
function representable(param: ParamDescription, value: unknown): boolean {
  switch (param.kind) {
    case "decimal":
    case "string":
      return typeof value === "string";
    case "integer":
      return (
        Number.isSafeInteger(value) && (!param.fits32Bits || Math.abs(value as number) < 2 ** 31)
      );
    case "boolean":
      return typeof value === "boolean";
    case "enum":
      return typeof value === "string" && (param.values ?? []).includes(value);
    case "list":
      return (
        Array.isArray(value) &&
        param.item !== undefined &&
        value.every((item) => representable(param.item as ParamDescription, item))
      );
  }
}

/** The GraphQL default of a parameter, when its zod default is a value a client could send. */
function graphqlDefault(
  schema: z.ZodType,
  param: ParamDescription,
): { value: unknown } | undefined {
  const found = defaultOf(schema);
  if (!found || !representable(param, found.value)) return undefined;
  // zod 4 defaults are output values; one is shown as an input only if it parses as one.
  return param.schema.safeParse(found.value).success ? found : undefined;
}

const MESSAGE_PROBLEMS = 3;

/**
 * Problems reported in one response, across all its fields. A batch may repeat one list
 * variable of 10,000 bad items in 100 fields; without a bound, a 50 KB request would get a
 * 140 MB answer. Every failing field still gets at least its first problem.
 */
export const MAX_PROBLEMS_PER_RESPONSE = 1000;

/** Problems each request may still report, keyed by the request's GraphQL context. */
const problemBudgets = new WeakMap<object, { remaining: number }>();

function takeProblems(context: object, problems: Problem[]): Problem[] {
  let budget = problemBudgets.get(context);
  if (!budget) {
    budget = { remaining: MAX_PROBLEMS_PER_RESPONSE };
    problemBudgets.set(context, budget);
  }
  const taken = problems.slice(0, Math.max(1, budget.remaining));
  budget.remaining = Math.max(0, budget.remaining - taken.length);
  return taken;
}

/**
 * List items one request may send across all its fields: as many as one REST request may.
 * Without it, 100 aliased fields over one 10,000-item list variable would do a hundred
 * requests' work for one small body.
 */
export const MAX_LIST_ITEMS_PER_REQUEST = 10_000;

const listItemBudgets = new WeakMap<object, { remaining: number }>();

/** Charges `input`'s list items to the request; false once the request's budget is spent. */
function takeListItems(context: object, input: Record<string, unknown>): boolean {
  let items = 0;
  for (const name in input) {
    const value = input[name];
    if (Array.isArray(value)) items += value.length;
  }
  if (items === 0) return true;
  let budget = listItemBudgets.get(context);
  if (!budget) {
    budget = { remaining: MAX_LIST_ITEMS_PER_REQUEST };
    listItemBudgets.set(context, budget);
  }
  budget.remaining -= items;
  return budget.remaining >= 0;
}

/** What resolvers need of yoga's context: the fastify request, for its logger. */
interface ResolverContext {
  req?: { id?: string; log?: { error(object: object, message: string): void } };
}

/** Faults already logged with their request, so yoga's logger does not log them again. */
const loggedFaults = new WeakSet<object>();

/**
 * Whether `error` was logged by a resolver, with its request id. Yoga logs every error it
 * masks; its logger skips these.
 *
 * @example
 * if (isLoggedFault(graphqlError.originalError)) return; // already in the log
 */
export function isLoggedFault(error: unknown): boolean {
  return typeof error === "object" && error !== null && loggedFaults.has(error);
}

/** One line for `errors[].message`; the list is in `extensions.detail`. */
function summarize(problems: Problem[]): string {
  const shown = problems
    .slice(0, MESSAGE_PROBLEMS)
    .map((p) => (p.loc.length > 0 ? `${p.loc.join(".")}: ${p.msg}` : p.msg));
  const more = problems.length - shown.length;
  return `Invalid input: ${shown.join("; ")}${more > 0 ? `; and ${more} more` : ""}`;
}

/**
 * Runs one operation for a resolver. Known failures become GraphQL errors that yoga
 * passes through unmasked; anything else is rethrown for yoga to mask and log.
 */
function resolveOperation(
  run: Runner,
  operation: AnyOperation,
  args: Record<string, unknown>,
  context: ResolverContext,
): unknown {
  // An explicit `null` for an optional argument means "not given", as in REST. A plain
  // loop: this runs for every field of every request.
  const input: Record<string, unknown> = {};
  for (const name in args) if (args[name] !== null) input[name] = args[name];
  if (!takeListItems(context, input)) {
    throw new GraphQLError(
      `This request sends more than ${MAX_LIST_ITEMS_PER_REQUEST} list items across its fields; split it.`,
      {
        extensions: {
          code: "BAD_USER_INPUT",
          detail: [
            {
              loc: ["args"],
              msg: `Value error, more than ${MAX_LIST_ITEMS_PER_REQUEST} list items in one request`,
              type: "value_error",
            },
          ],
        },
      },
    );
  }
  try {
    return run(operation, input);
  } catch (error) {
    if (error instanceof InvalidInputError) {
      const detail = takeProblems(context, error.problems);
      const omitted = error.problems.length - detail.length;
      throw new GraphQLError(summarize(error.problems), {
        extensions: {
          code: "BAD_USER_INPUT",
          detail: locate(detail, "args"),
          ...(omitted > 0 ? { omittedProblems: omitted } : {}),
        },
      });
    }
    if (error instanceof NotFoundError) {
      throw new GraphQLError(error.message, { extensions: { code: "NOT_FOUND" } });
    }
    // Logged here, where the request (and its id) is known; yoga masks it in the response.
    if (context.req?.log && typeof error === "object" && error !== null) {
      context.req.log.error(
        {
          requestId: context.req.id,
          err: error,
          operation: `${operation.area}/${operation.name}`,
        },
        "graphql: unexpected fault",
      );
      loggedFaults.add(error);
    }
    throw error;
  }
}

function operationField(
  types: TypeFactory,
  operation: AnyOperation,
  where: string,
  run: Runner,
): (t: LooseFieldBuilder) => unknown {
  const typeName = pascalCase(`${operation.area}/${operation.name}`);
  const result = types.output(operation.output, typeName, where);
  const params = Object.entries(operation.input.shape).map(([name, schema]) => {
    const param = describeParam(schema);
    const description = descriptionOf(schema);
    return {
      name,
      param,
      type: types.input(param, `${typeName}${capitalize(name)}`, description),
      description,
      fallback: graphqlDefault(schema, param),
    };
  });
  return (t) =>
    t.field({
      ...result,
      // Nullable whatever the schema says: a failing calculation is null, its neighbours answer.
      nullable:
        typeof result.nullable === "object" ? { list: true, items: result.nullable.items } : true,
      description: `${operation.summary}\n\n${operation.description}`,
      args: Object.fromEntries(
        params.map(({ name, param, type, description, fallback }) => [
          name,
          t.arg({
            type,
            required: Array.isArray(type)
              ? { list: param.required && !fallback, items: true }
              : param.required && !fallback,
            description,
            ...(fallback ? { defaultValue: fallback.value } : {}),
          }),
        ]),
      ),
      resolve: (_parent, args, context) => resolveOperation(run, operation, args, context),
    });
}

/**
 * Builds the schema for `operations`. Throws, naming the operation and field, for an
 * output schema GraphQL cannot carry, so a bad module stops the start.
 *
 * @example
 * const schema = buildGraphqlSchema(await loadOperations());
 * printSchema(schema); // type Query { case: CaseOperations … math: MathOperations … }
 */
export function buildGraphqlSchema(
  operations: readonly AnyOperation[],
  run: Runner = execute,
): GraphQLSchema {
  const builder: Builder = new SchemaBuilder<SchemaTypes>({});
  builder.addScalarType("Decimal", DecimalScalar);
  builder.addScalarType("SafeInt", SafeIntScalar);
  const types = new TypeFactory(builder);

  const areas = new Map<string, AnyOperation[]>();
  for (const operation of operations) {
    areas.set(operation.area, [...(areas.get(operation.area) ?? []), operation]);
  }

  const areaFields: { name: string; area: string; ref: object }[] = [];
  for (const [area, members] of areas) {
    const fields = new Map<string, (t: LooseFieldBuilder) => unknown>();
    for (const operation of members) {
      const id = `${operation.area}/${operation.name}`;
      const { field } = graphqlFieldOf(operation);
      if (fields.has(field)) {
        throw new TypeError(`${id}: its GraphQL field name '${field}' is taken in area '${area}'`);
      }
      fields.set(field, operationField(types, operation, id, run));
    }
    const ref = builder.objectRef<Record<string, never>>(
      types.uniqueName(`${pascalCase(area)}Operations`),
    );
    const implement = ref.implement as unknown as (options: {
      description: string;
      fields: FieldsOf;
    }) => void;
    implement.call(ref, {
      description: `The operations of the \`${area}\` area (REST: \`/v1/${area}/…\`).`,
      fields: (t) => Object.fromEntries([...fields].map(([name, field]) => [name, field(t)])),
    });
    areaFields.push({ name: camelCase(area), area, ref });
  }

  const queryType = builder.queryType as unknown as (options: {
    description: string;
    fields: FieldsOf;
  }) => void;
  queryType.call(builder, {
    description:
      "One field per area; each area's fields are its operations. Batch many calculations in " +
      "one query with aliases: each is validated and run on its own.",
    fields: (t) =>
      Object.fromEntries(
        areaFields.map(({ name, area, ref }) => [
          name,
          t.field({
            type: ref,
            nullable: true,
            description: `The \`${area}\` operations.`,
            // The area object carries nothing: its fields are the operations.
            resolve: () => ({}),
          }),
        ]),
      ),
  });
  // Keep the registry's order: arguments read as in REST, areas and operations by path.
  return builder.toSchema({ sortSchema: false });
}
