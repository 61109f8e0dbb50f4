import { describe, expect, it } from "vitest";
import { z } from "zod";
import { adminDocument } from "../admin/openapi.js";
import { jsonSchema } from "../core/json-schema.js";
import { defineOperation } from "../kit/define.js";
import { decimal, list } from "../kit/params.js";
import { buildOpenApiDocument } from "./document.js";

const lookup = defineOperation({
  area: "things",
  name: "look/up",
  summary: "Looks a thing up.",
  description: "A fixture with a list, a default and a 404.",
  input: z.object({
    ids: list(z.string(), { min: 1, max: 3, description: "Ids." }),
    scale: decimal().optional(),
    exact: z.boolean().default(true),
  }),
  output: z.object({ found: z.int(), tag: z.string().default("x") }),
  examples: [
    { title: "One id", input: { ids: ["a"] }, output: { found: 1, tag: "x" } },
    { title: "Scaled", input: { ids: ["a", "b"], scale: "2" }, output: { found: 2, tag: "x" } },
  ],
  notFound: "No thing has one of these ids.",
  handler: ({ ids }) => ({ found: ids.length }),
});
const plain = defineOperation({
  area: "things",
  name: "count",
  summary: "Counts",
  description: "A fixture without parameters.",
  input: z.object({}),
  output: z.object({ n: z.int() }),
  examples: [{ title: "Zero", input: {}, output: { n: 0 } }],
  handler: () => ({ n: 0 }),
});

// With the admin surface's fragment, as app.ts composes it.
const document = buildOpenApiDocument([lookup, plain], { version: "9.9.9" }, [adminDocument()]);
const get = (path: string) =>
  (document.paths[path] as { get: Record<string, unknown> } | undefined)?.get;

describe("jsonSchema", () => {
  it.each([
    [
      "a default, as the client sends it",
      z.boolean().default(true),
      "input",
      { type: "boolean", default: true },
    ],
    [
      "a list of decimals, with its bounds",
      list(decimal(), { min: 1, max: 2 }),
      "input",
      { type: "array", minItems: 1, maxItems: 2 },
    ],
  ] as const)("%s", (_case, schema, io, expected) => {
    const json = jsonSchema(schema, io);
    expect(json).toMatchObject(expected);
    expect(json).not.toHaveProperty("$schema");
  });

  it("requires a defaulted field in an answer, not in a request", () => {
    const schema = z.object({ a: z.int().default(1), b: z.int() });
    expect(jsonSchema(schema, "input").required).toEqual(["b"]);
    expect(jsonSchema(schema, "output").required).toEqual(["a", "b"]);
  });
});

describe("buildOpenApiDocument", () => {
  it("has one GET per operation at its REST path, named by its path", () => {
    expect(Object.keys(document.paths).filter((path) => path.startsWith("/v1/things/"))).toEqual([
      "/v1/things/look/up",
      "/v1/things/count",
    ]);
    expect(get("/v1/things/look/up")?.operationId).toBe("things.look.up");
    expect(document.info.version).toBe("9.9.9");
  });

  it.each([
    [
      "ids",
      { required: true, description: "Ids.", style: "form", explode: true },
      ["example1", "example2"],
    ],
    ["scale", { required: false, description: "" }, ["example2"]],
    ["exact", { required: false, schema: { type: "boolean", default: true } }, undefined],
  ])("describes the parameter %s, with the examples that give it", (name, expected, examples) => {
    const parameters = get("/v1/things/look/up")?.parameters as Record<string, unknown>[];
    const parameter = parameters.find((p) => p.name === name);
    expect(parameter).toMatchObject({ in: "query", ...expected });
    const given = parameter?.examples as Record<string, unknown> | undefined;
    expect(given && Object.keys(given)).toEqual(examples);
    if (name !== "ids") expect(parameter).not.toHaveProperty("style");
  });

  it.each([
    ["/v1/things/look/up", ["200", "401", "404", "422", "429", "431", "500"]],
    ["/v1/things/count", ["200", "401", "422", "429", "431", "500"]],
  ])("%s answers %j: a 404 only where the operation says what it means", (path, statuses) => {
    expect(Object.keys(get(path)?.responses as object)).toEqual(statuses);
  });

  it("gives the success response the output schema and every example's answer", () => {
    type Content = { schema: { required: string[] }; examples: unknown };
    const responses = get("/v1/things/look/up")?.responses as {
      "200": { content: { "application/json": Content } };
    };
    const content = responses["200"].content["application/json"];
    expect(content.schema.required).toEqual(["found", "tag"]);
    expect(content.examples).toEqual({
      example1: { summary: "One id", value: { found: 1, tag: "x" } },
      example2: { summary: "Scaled", value: { found: 2, tag: "x" } },
    });
  });

  it("tags each area with its path and its operations' summaries", () => {
    expect(document.tags[0]).toEqual({
      name: "things",
      description: "Operations under `/v1/things/`. `look/up`: Looks a thing up; `count`: Counts.",
    });
  });

  it("states /v1/me and the admin API, the latter under its own tag and bearer scheme", () => {
    expect(document.tags.map((tag) => tag.name)).toEqual(["things", "keys", "admin"]);
    expect(Object.keys(document.paths).slice(2)).toEqual([
      "/v1/me",
      "/admin/v1/keys",
      "/admin/v1/keys/{id}",
      "/admin/v1/keys/{id}/roll",
      "/admin/v1/keys/{id}/usage",
    ]);
    expect(document.components.securitySchemes.bearerAuth).toMatchObject({
      type: "http",
      scheme: "bearer",
    });
    const create = (document.paths["/admin/v1/keys"] as { post: Record<string, unknown> }).post;
    expect(create.security).toEqual([{ bearerAuth: [] }]);
    const newKey = document.components.schemas.NewKey as {
      required: string[];
      additionalProperties: boolean;
      properties: Record<string, Record<string, unknown>>;
    };
    expect(newKey.required).toEqual(["name"]);
    expect(newKey.additionalProperties).toBe(false);
    expect(newKey.properties.name).toMatchObject({ minLength: 1, maxLength: 100 });
    const key = document.components.schemas.Key as { required: string[] };
    expect(key.required).not.toContain("hash");
    expect(key.required).toContain("lastUsedAt");
  });
});
