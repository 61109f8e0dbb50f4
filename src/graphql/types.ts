/**
 * Zod schemas to GraphQL types, with Pothos: output schemas become object types walked
 * field by field, parameters become arguments (read back with `describeParam`, as REST
 * does), enums become GraphQL enums when their values are valid names. Pothos is used in
 * this file and in schema.ts only.
 */
import type {
  EnumRef,
  FieldNullability,
  FieldRequiredness,
  InputShapeFromTypeParam,
  ObjectRef,
  ShapeFromTypeParam,
} from "@pothos/core";
import { defaultFieldResolver } from "graphql";
import type { z } from "zod";
import { z as zod } from "zod";
import { describeParam, type ParamDescription } from "../kit/params.js";
import { capitalize, isEnumName } from "./names.js";
import type { ResolverContext } from "./resolve.js";

/** The schema's custom scalars and its resolvers' context, as Pothos types them. */
export interface SchemaTypes {
  Scalars: {
    Decimal: { Input: string; Output: string };
    SafeInt: { Input: number; Output: number };
  };
  Context: ResolverContext;
}

export type Types = PothosSchemaTypes.ExtendDefaultTypes<SchemaTypes>;
export type Builder = PothosSchemaTypes.SchemaBuilder<Types>;

/** A generated enum: an output type and an input type alike. */
export type EnumType = EnumRef<Types, string>;

/** The GraphQL types a zod output schema maps to, and a field's type: one of them or a list. */
export type OutputLeaf = "String" | "Boolean" | "Int" | "Float" | "SafeInt" | EnumType | ResultRef;
export type OutputParam = OutputLeaf | [OutputLeaf];
export type Nullability = FieldNullability<OutputParam>;

/** The GraphQL types a parameter maps to, and an argument's type: one of them or a list. */
export type InputLeaf = "String" | "Boolean" | "Int" | "SafeInt" | "Decimal" | EnumType;
export type InputParam = InputLeaf | [InputLeaf];
export type Requiredness = FieldRequiredness<InputParam>;

/** What a generated field may hold, as Pothos derives it from the field types above. */
export type FieldValue = ShapeFromTypeParam<Types, OutputParam, Nullability>;

/** A generated result object: each field's value is one its generated type allows. */
export interface Result {
  [field: string]: FieldValue;
}
export type ResultRef = ObjectRef<Types, Result>;

/** A value an argument's default may be, as Pothos derives it from the argument types. */
export type ArgValue = InputShapeFromTypeParam<Types, InputParam, Requiredness>;

export interface OutputType {
  type: OutputParam;
  nullable: Nullability;
}

/**
 * A result field's resolver: graphql's default one (`parent[key]`, the key being the field's
 * name), so that graphql-jit reads the property inline, with no resolver call and no
 * resolve info made per field of each request. Typed as a generated field's resolver.
 */
const readProperty = defaultFieldResolver as (parent: Result) => FieldValue;

/** Wrappers that change neither the GraphQL type nor the value a client sees. */
const TRANSPARENT = new Set(["default", "prefault", "readonly", "catch", "nonoptional"]);

/** The fields of zod's internal definitions read here; each kind of schema has some of them. */
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

const defOf = (schema: z.ZodType) => schema._zod.def as ZodDef;

/** The first `.describe()`/`.meta()` description met walking in through the wrappers. */
export function descriptionOf(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const description = zod.globalRegistry.get(current)?.description;
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

/**
 * Generates the types, keeping names unique: a name asked for twice gets a number, unless
 * it is the same enum again (an input and an output `encoding` share one type).
 */
export class TypeFactory {
  private readonly names = new Set<string>(["Query", "Decimal", "SafeInt"]);
  private readonly enums = new Map<string, { values: string; ref: EnumType }>();

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
  enumOrString(name: string, values: readonly string[], description?: string): "String" | EnumType {
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

  private leaf(schema: z.ZodType, def: ZodDef, name: string, where: string): OutputLeaf {
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
  ): ResultRef {
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
    const ref = this.builder.objectRef<Result>(name);
    ref.implement({
      description: said,
      fields: (t) =>
        fields.length === 0
          ? {
              // GraphQL object types need a field; a result with none still gets its own type.
              _empty: t.boolean({
                nullable: true,
                description: "This result has no fields; always null.",
                resolve: () => null,
              }),
            }
          : Object.fromEntries(
              fields.map(({ key, type, nullable, description }) => [
                key,
                t.field({ type, nullable, description, resolve: readProperty }),
              ]),
            ),
    });
    return ref;
  }

  /** The GraphQL type of one parameter; `description` is the parameter's. */
  input(param: ParamDescription, name: string, description?: string): InputParam {
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
function representable(param: ParamDescription, value: unknown): value is ArgValue {
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
export function graphqlDefault(
  schema: z.ZodType,
  param: ParamDescription,
): { value: ArgValue } | undefined {
  const found = defaultOf(schema);
  if (!found || !representable(param, found.value)) return undefined;
  // zod 4 defaults are output values; one is shown as an input only if it parses as one.
  return param.schema.safeParse(found.value).success ? { value: found.value } : undefined;
}
