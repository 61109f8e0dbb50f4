/**
 * GraphQL test helpers, written independently of src/graphql: arguments are written from
 * the parameter kinds (`describeParam`) and selections from the zod output schemas, so the
 * tests check the generated schema rather than reuse its code.
 */
import type { FastifyInstance, LightMyRequestResponse } from "fastify";
import type { z } from "zod";
import type { AnyOperation } from "../src/kit/define.js";
import { describeParam, type ParamDescription } from "../src/kit/params.js";
import { AUTH } from "./helpers.js";

/** `checksum/md5` → `checksumMd5`, `is-leap-year` → `isLeapYear`. */
export const camel = (text: string) =>
  text.replace(/[-/]+([a-z0-9])/g, (_match, letter: string) => letter.toUpperCase());

/** The `Query` field and the area field of an operation. */
export function fieldsOf(operation: AnyOperation): { area: string; field: string } {
  return { area: camel(operation.area), field: camel(operation.name) };
}

const ENUM_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

/** A GraphQL literal for one parameter value of the given kind. */
export function literal(param: ParamDescription, value: unknown): string {
  switch (param.kind) {
    case "decimal":
      return JSON.stringify(String(value));
    case "integer":
    case "boolean":
      return String(value);
    case "string":
      return JSON.stringify(value);
    case "enum":
      return (param.values ?? []).every((v) => ENUM_NAME.test(v))
        ? String(value)
        : JSON.stringify(value);
    case "list": {
      const item = param.item as ParamDescription;
      return `[${(value as unknown[]).map((v) => literal(item, v)).join(", ")}]`;
    }
  }
}

/** `(a: "1", b: 2)` for an example input. */
export function argumentsFor(operation: AnyOperation, input: Record<string, unknown>): string {
  const args = Object.entries(input).map(([name, value]) => {
    const schema = operation.input.shape[name] as z.ZodType;
    return `${name}: ${literal(describeParam(schema), value)}`;
  });
  return args.length > 0 ? `(${args.join(", ")})` : "";
}

interface Def {
  type: string;
  innerType?: z.ZodType;
  element?: z.ZodType;
  shape?: Record<string, z.ZodType>;
  out?: z.ZodType;
}

/** Every output field, recursively, as a selection set (or "" for a leaf). */
export function selectionFor(schema: z.ZodType): string {
  const def = schema._zod.def as unknown as Def;
  if (def.innerType) return selectionFor(def.innerType);
  if (def.type === "pipe" && def.out) return selectionFor(def.out);
  if (def.type === "array" && def.element) return selectionFor(def.element);
  if (def.type === "object") {
    const fields = Object.entries(def.shape ?? {}).map(([key, field]) =>
      `${key} ${selectionFor(field)}`.trim(),
    );
    return `{ ${fields.length > 0 ? fields.join(" ") : "_empty"} }`;
  }
  return "";
}

/** `area { field(args) { … } }`, optionally aliased. */
export function fieldFor(
  operation: AnyOperation,
  input: Record<string, unknown>,
  alias?: string,
): string {
  const { area, field } = fieldsOf(operation);
  return `${alias ? `${alias}: ` : ""}${area} { ${field}${argumentsFor(operation, input)} ${selectionFor(operation.output)} }`;
}

export interface GraphqlBody {
  data?: Record<string, Record<string, unknown> | null> | null;
  errors?: {
    message: string;
    path?: (string | number)[];
    extensions?: {
      code?: string;
      detail?: { loc: string[]; msg: string; type: string }[];
    } & Record<string, unknown>;
  }[];
}

/** `POST /graphql` with the test key (or `headers`). */
export async function graphql(
  app: FastifyInstance,
  query: string,
  variables?: Record<string, unknown>,
  headers: Record<string, string> = AUTH,
): Promise<LightMyRequestResponse & { body: string; parsed: GraphqlBody }> {
  const response = await app.inject({
    method: "POST",
    url: "/graphql",
    headers: { "content-type": "application/json", ...headers },
    payload: JSON.stringify({ query, variables }),
  });
  return Object.assign(response, { parsed: response.json() as GraphqlBody });
}

/** Drops null and undefined members, so GraphQL's nulls compare equal to REST's omissions. */
export function withoutNulls(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutNulls);
  if (value !== null && typeof value === "object") {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([, v]) => v !== null && v !== undefined)
        .map(([k, v]) => [k, withoutNulls(v)]),
    );
  }
  return value;
}
