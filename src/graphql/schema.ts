/**
 * The GraphQL schema, generated from the operation registry: nothing here is written per
 * operation. `Query` has one field per area; an area's object type has one field per
 * operation, whose arguments and result type come from its zod schemas (types.ts) and
 * whose resolver calls the one runner (resolve.ts), as the REST routes do.
 */
import SchemaBuilder, { type FieldRef, type ObjectRef } from "@pothos/core";
import type { GraphQLSchema } from "graphql";
import { execute, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import { describeParam } from "../kit/params.js";
import { camelCase, capitalize, graphqlFieldOf, pascalCase } from "./names.js";
import { resolveOperation, type UsageHook } from "./resolve.js";
import { DecimalScalar, SafeIntScalar } from "./scalars.js";
import {
  type Builder,
  descriptionOf,
  type FieldValue,
  graphqlDefault,
  type SchemaTypes,
  TypeFactory,
  type Types,
} from "./types.js";

export { camelCase, graphqlFieldOf, pascalCase } from "./names.js";
export { isLoggedFault } from "./resolve.js";

/** An area's object carries nothing: its fields are the operations. */
type Area = Record<string, never>;

/** What every area field resolves to: one object, not one per field of each request. */
const AREA: Area = Object.freeze({});
/** One operation's field on its area's type, made when Pothos builds that type. */
type AreaField = (t: PothosSchemaTypes.ObjectFieldBuilder<Types, Area>) => FieldRef<Types>;

function operationField(
  types: TypeFactory,
  operation: AnyOperation,
  where: string,
  run: Runner,
  used: UsageHook | undefined,
): AreaField {
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
      type: result.type,
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
      // The one cast: the runner answers what the output schema says, a type known at start only.
      resolve: (_parent, args, context) =>
        resolveOperation(run, operation, args, context, used) as FieldValue,
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
  used?: UsageHook,
): GraphQLSchema {
  const builder: Builder = new SchemaBuilder<SchemaTypes>({});
  builder.addScalarType("Decimal", DecimalScalar);
  builder.addScalarType("SafeInt", SafeIntScalar);
  const types = new TypeFactory(builder);

  const areas = new Map<string, AnyOperation[]>();
  for (const operation of operations) {
    areas.set(operation.area, [...(areas.get(operation.area) ?? []), operation]);
  }

  const areaFields: { name: string; area: string; ref: ObjectRef<Types, Area> }[] = [];
  for (const [area, members] of areas) {
    const fields = new Map<string, AreaField>();
    for (const operation of members) {
      const id = `${operation.area}/${operation.name}`;
      const { field } = graphqlFieldOf(operation);
      if (fields.has(field)) {
        throw new TypeError(`${id}: its GraphQL field name '${field}' is taken in area '${area}'`);
      }
      fields.set(field, operationField(types, operation, id, run, used));
    }
    const ref = builder.objectRef<Area>(types.uniqueName(`${pascalCase(area)}Operations`));
    ref.implement({
      description: `The operations of the \`${area}\` area (REST: \`/v1/${area}/…\`).`,
      fields: (t) => Object.fromEntries([...fields].map(([name, field]) => [name, field(t)])),
    });
    areaFields.push({ name: camelCase(area), area, ref });
  }

  builder.queryType({
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
            resolve: () => AREA,
          }),
        ]),
      ),
  });
  // Keep the registry's order: arguments read as in REST, areas and operations by path.
  return builder.toSchema({ sortSchema: false });
}
