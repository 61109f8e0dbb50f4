/**
 * GraphQL documents written from the registry's examples: GraphiQL's starting query shows
 * real operations without this code naming any.
 */
import {
  astFromValue,
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  print,
} from "graphql";
import type { AnyOperation } from "../kit/define.js";
import { graphqlFieldOf } from "./names.js";

/**
 * Every field of `type`, objects expanded, as a selection set.
 *
 * @example
 * selectAll(schema.getType("MathSum") as GraphQLObjectType); // "{\n  result\n  decimal\n  count\n}"
 */
export function selectAll(type: GraphQLObjectType, indent = "  "): string {
  const lines = Object.values(type.getFields()).map((field) => {
    const named = getNamedType(field.type);
    return isObjectType(named)
      ? `${indent}${field.name} ${selectAll(named, `${indent}  `)}`
      : `${indent}${field.name}`;
  });
  return `{\n${lines.join("\n")}\n${indent.slice(2)}}`;
}

/** `name: literal` for each argument the example gives, typed by the schema. */
function argumentsOf(
  field: GraphQLField<unknown, unknown>,
  input: Record<string, unknown>,
): string {
  const args = field.args.flatMap((arg) => {
    if (!(arg.name in input)) return [];
    const literal = astFromValue(input[arg.name], arg.type);
    return literal ? [`${arg.name}: ${print(literal)}`] : [];
  });
  return args.length > 0 ? `(${args.join(", ")})` : "";
}

/**
 * A query running the first example of each of `operations` in one request, one area
 * field per operation (aliased, so two operations of one area can stand side by side).
 *
 * @example
 * exampleQuery(schema, operations.slice(0, 2));
 * // "{\n  case { detect(text: \"helloWorld\") { … } }\n  crypto { … }\n}"
 */
export function exampleQuery(schema: GraphQLSchema, operations: readonly AnyOperation[]): string {
  const query = schema.getQueryType();
  const parts: string[] = [];
  const usedAreas = new Set<string>();
  for (const operation of operations) {
    const { area, field } = graphqlFieldOf(operation);
    const areaType = getNamedType(query?.getFields()[area]?.type);
    const opField = isObjectType(areaType) ? areaType.getFields()[field] : undefined;
    const resultType = getNamedType(opField?.type);
    if (!opField || !isObjectType(resultType)) continue;
    const input = operation.examples[0]?.input ?? {};
    const alias = usedAreas.has(area) ? `${field}: ` : "";
    usedAreas.add(area);
    parts.push(
      `  ${alias}${area} {\n    ${field}${argumentsOf(opField, input)} ${selectAll(resultType, "      ")}\n  }`,
    );
  }
  return `{\n${parts.join("\n")}\n}\n`;
}
