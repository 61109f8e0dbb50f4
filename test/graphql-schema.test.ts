/**
 * The generated GraphQL schema, read back against the registry: names, argument and
 * result types, nullability, descriptions and defaults. The scalars and names are tested
 * beside their modules (src/graphql/scalars.test.ts, names.test.ts).
 */
import {
  type GraphQLArgument,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  getNamedType,
  isEnumType,
  isListType,
  isNonNullType,
  isObjectType,
  printSchema,
  validateSchema,
} from "graphql";
import { describe, expect, it } from "vitest";
import { buildGraphqlSchema, pascalCase } from "../src/graphql/schema.js";
import { defineOperation, z } from "../src/kit/index.js";
import { describeParam, type ParamDescription } from "../src/kit/params.js";
import { allKinds, clash, nothing } from "./fixtures/graphql-shapes.js";
import { camel, fieldsOf } from "./graphql-helpers.js";
import { allOperations } from "./helpers.js";

const operations = await allOperations();
const schema = buildGraphqlSchema(operations);
const query = schema.getQueryType();

function operationField(area: string, field: string): GraphQLField<unknown, unknown> | undefined {
  const areaType = getNamedType(query?.getFields()[area]?.type);
  return isObjectType(areaType) ? areaType.getFields()[field] : undefined;
}

/** The zod description of a schema or of any wrapper inside it. */
function zodDescription(schema: z.ZodType): string | undefined {
  let current: z.ZodType | undefined = schema;
  while (current) {
    const description = z.globalRegistry.get(current)?.description;
    if (description) return description;
    const def = current._zod.def as { innerType?: z.ZodType; in?: z.ZodType; type: string };
    current = def.innerType ?? (def.type === "pipe" ? def.in : undefined);
  }
  return undefined;
}

function expectInputType(type: GraphQLInputType, param: ParamDescription, where: string) {
  switch (param.kind) {
    case "decimal":
      expect(String(type), where).toBe("Decimal");
      break;
    case "integer":
      expect(String(type), where).toBe(param.fits32Bits ? "Int" : "SafeInt");
      break;
    case "boolean":
      expect(String(type), where).toBe("Boolean");
      break;
    case "string":
      expect(String(type), where).toBe("String");
      break;
    case "enum":
      if (isEnumType(type)) {
        expect(
          type.getValues().map((v) => v.value),
          where,
        ).toEqual(param.values);
      } else {
        expect(String(type), where).toBe("String");
        expect(
          param.values?.some((v) => !/^[_A-Za-z][_0-9A-Za-z]*$/.test(v)),
          where,
        ).toBe(true);
      }
      break;
    case "list":
      expect(isListType(type), where).toBe(true);
      if (isListType(type)) {
        expect(isNonNullType(type.ofType), `${where}: items are non-null`).toBe(true);
        expectInputType(
          getNamedType(type.ofType) as GraphQLInputType,
          param.item as ParamDescription,
          where,
        );
      }
      break;
  }
}

describe("the generated schema", () => {
  it("is valid and prints", () => {
    expect(validateSchema(schema)).toEqual([]);
    expect(printSchema(schema)).toMatch(/scalar Decimal/);
  });

  it("describes every object type, enum and enum value, for the docs panel and codegen", () => {
    const undescribed: string[] = [];
    for (const type of Object.values(schema.getTypeMap())) {
      if (
        type.name.startsWith("__") ||
        ["String", "Boolean", "Int", "Float", "ID"].includes(type.name)
      )
        continue;
      if (!type.description) undescribed.push(type.name);
      if (isEnumType(type)) {
        for (const value of type.getValues())
          if (!value.description) undescribed.push(`${type.name}.${value.name}`);
      }
    }
    expect(undescribed).toEqual([]);
  });

  it("has one nullable Query field per area", () => {
    const areas = [...new Set(operations.map((o) => camel(o.area)))].sort();
    const fields = query?.getFields() ?? {};
    expect(Object.keys(fields).sort()).toEqual(areas);
    for (const field of Object.values(fields)) {
      expect(isNonNullType(field.type), field.name).toBe(false);
      expect(String(field.type)).toBe(`${pascalCase(field.name)}Operations`);
    }
  });

  it("resolves result fields by graphql's default resolver, read inline by graphql-jit", () => {
    // A resolver of its own would be called (with its resolve info made) for every result
    // field of every request; graphql-jit reads a field without one as a property.
    const resolved: string[] = [];
    for (const area of Object.values(query?.getFields() ?? {})) {
      const areaType = getNamedType(area.type) as GraphQLObjectType;
      for (const field of Object.values(areaType.getFields())) {
        const result = getNamedType(field.type);
        if (!isObjectType(result)) continue;
        for (const leaf of Object.values(result.getFields())) {
          if (leaf.resolve !== undefined && leaf.name !== "_empty") {
            resolved.push(`${result.name}.${leaf.name}`);
          }
        }
      }
    }
    expect(resolved).toEqual([]);
  });

  it("resolves every area field to one shared object, not one per request", () => {
    const [first, second] = Object.values(query?.getFields() ?? {});
    const resolve = (field: typeof first) =>
      field?.resolve?.(undefined, {}, {}, undefined as never) as object;
    expect(resolve(first)).toBe(resolve(first));
    expect(resolve(first)).toBe(resolve(second));
  });

  it("names the contract's fields as the contract does", () => {
    const contract: Record<string, string> = {
      "hash/hmac-md5": "hash.hmacMd5",
      "crypto/checksum/md5": "crypto.checksumMd5",
      "ip/supernet": "ip.supernet",
      "datetime/is-leap-year": "datetime.isLeapYear",
      "finance/simple-interest": "finance.simpleInterest",
      "math/is-between": "math.isBetween",
      "math/nth-root": "math.nthRoot",
      "math/sum": "math.sum",
      "math/subtract": "math.subtract",
      "stats/product": "stats.product",
      "stats/range": "stats.range",
      "text/sentiment": "text.sentiment",
      "case/detect": "case.detect",
      "misc/fizzbuzz": "misc.fizzbuzz",
      "misc/status-code": "misc.statusCode",
      "fun/would-you-rather": "fun.wouldYouRather",
    };
    for (const operation of operations) {
      const expected = contract[`${operation.area}/${operation.name}`];
      if (!expected) continue;
      const { area, field } = fieldsOf(operation);
      expect(`${area}.${field}`).toBe(expected);
      expect(operationField(area, field), expected).toBeDefined();
    }
  });
});

describe.each(
  operations.map((operation) => [`${operation.area}/${operation.name}`, operation] as const),
)("%s", (_id, operation) => {
  const { area, field: name } = fieldsOf(operation);
  const field = operationField(area, name) as GraphQLField<unknown, unknown>;

  it("is a nullable field described by the operation", () => {
    expect(field).toBeDefined();
    expect(isNonNullType(field.type)).toBe(false);
    expect(field.description).toContain(operation.description);
  });

  it("takes the input schema's parameters as arguments", () => {
    const args = new Map<string, GraphQLArgument>(field.args.map((a) => [a.name, a]));
    expect([...args.keys()]).toEqual(Object.keys(operation.input.shape));
    for (const [paramName, paramSchema] of Object.entries(operation.input.shape)) {
      const arg = args.get(paramName) as GraphQLArgument;
      const param = describeParam(paramSchema);
      const where = `${name}(${paramName})`;
      const required = param.required && arg.defaultValue === undefined;
      expect(isNonNullType(arg.type), where).toBe(required);
      expectInputType(isNonNullType(arg.type) ? arg.type.ofType : arg.type, param, where);
      const description = zodDescription(paramSchema);
      if (description) expect(arg.description, where).toBe(description);
      if (arg.defaultValue !== undefined) {
        // A default shown in the schema is accepted by the operation as input.
        expect(param.schema.safeParse(arg.defaultValue).success, where).toBe(true);
      }
    }
  });

  it("answers the output schema's fields, typed and described", () => {
    const checkObject = (type: GraphQLOutputType, zodSchema: z.ZodType, where: string) => {
      const named = getNamedType(type);
      let inner = zodSchema;
      for (;;) {
        const def = inner._zod.def as { type: string; innerType?: z.ZodType; element?: z.ZodType };
        if (def.innerType) inner = def.innerType;
        else if (def.type === "array" && def.element) inner = def.element;
        else break;
      }
      const def = inner._zod.def as { type: string; shape?: Record<string, z.ZodType> };
      if (def.type !== "object" || !isObjectType(named)) return;
      const fields = named.getFields();
      for (const [key, child] of Object.entries(def.shape ?? {})) {
        const gqlField = fields[key];
        expect(gqlField, `${where}.${key}`).toBeDefined();
        if (!gqlField) continue;
        const description = zodDescription(child);
        if (description) expect(gqlField.description, `${where}.${key}`).toBe(description);
        const nullable = child.safeParse(null).success || child.safeParse(undefined).success;
        expect(isNonNullType(gqlField.type), `${where}.${key} non-null`).toBe(!nullable);
        checkObject(gqlField.type, child, `${where}.${key}`);
      }
    };
    checkObject(field.type, operation.output, name);
  });
});

describe("types from zod", () => {
  const printed = printSchema(buildGraphqlSchema([allKinds, nothing]));

  it("maps each kind", () => {
    expect(printed).toContain("type ShapesAllKinds {");
    expect(printed).toMatch(/"""A safe integer\."""\s+big: SafeInt!/);
    expect(printed).toContain("small: Int!");
    expect(printed).toContain("ratio: Float!");
    expect(printed).toContain("tag: String!");
    expect(printed).toContain("mode: ShapesAllKindsMode!");
    expect(printed).toContain("odd: String\n");
    expect(printed).toContain("items: [ShapesAllKindsItemsItem!]!");
    expect(printed).toContain("nested: ShapesAllKindsNested\n");
    expect(printed).toMatch(
      /enum ShapesAllKindsMode {(\s+"""[^"]*"""\s+fast)(\s+"""[^"]*"""\s+slow)\s+}/,
    );
  });

  it("writes representable defaults and shares an enum between input and output", () => {
    expect(printed).toMatch(/"""A flag\."""\s+flag: Boolean = true/);
    expect(printed).toContain("small: Int = 3");
    expect(printed).toContain("mode: ShapesAllKindsMode = slow");
    expect(printed).toContain("odd: String\n");
    expect(printed).not.toContain("ShapesAllKindsMode2");
  });

  it("gives an empty result a placeholder field", () => {
    expect(printed).toMatch(/type ShapesNothing {[^}]*_empty: Boolean\s*}/);
  });

  it("numbers a name asked for twice, unless it is the same enum again", () => {
    const both = printSchema(buildGraphqlSchema([allKinds, clash]));
    expect(both).toContain("type ShapesAllKinds2 {");
    expect(both).toContain("kinds(mode: ShapesAllKindsMode2): ShapesAllKinds2");
  });

  it("refuses a result GraphQL cannot carry, naming the operation and the field", () => {
    // Each kind refused is listed in src/graphql/types.test.ts; here, that the start stops.
    const operation = defineOperation({
      area: "shapes",
      name: "bad",
      summary: "Bad",
      description: "An output GraphQL cannot carry.",
      input: z.object({}),
      output: z.object({ grid: z.array(z.array(z.int())) }),
      examples: [],
      handler: () => ({ grid: [] }),
    });
    expect(() => buildGraphqlSchema([operation])).toThrow(
      "shapes/bad.grid: lists of lists cannot be carried in GraphQL",
    );
  });
});
