/**
 * The OpenAPI document the service serves is a valid OpenAPI 3.1 document (checked by a
 * standard validator, @seriousme/openapi-schema-validator), and its schemas are sound
 * JSON Schema 2020-12 that its own examples satisfy: the fuzz oracle relies on both.
 */
import { Validator } from "@seriousme/openapi-schema-validator";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { afterAll, describe, expect, it } from "vitest";
import { pathOf } from "../../src/core/path.js";
import { allOperations, testApp } from "../helpers.js";
import { isOperationPath } from "./generators.js";
import { dereference, JSON_CONTENT_TYPE, Oracle } from "./oracle.js";

const operations = await allOperations();
const app = await testApp();
afterAll(() => app.close());
const response = await app.inject({ url: "/openapi.json" });
const doc = response.json() as Record<string, unknown>;

type Json = Record<string, unknown>;
const allPaths = doc.paths as Record<string, Record<string, Json>>;
/** The operations' paths; /v1/me and the admin API are checked on their own below. */
const paths = Object.fromEntries(
  Object.entries(allPaths).filter(([path]) => isOperationPath(path)),
) as Record<string, { get: Json }>;

describe("GET /openapi.json", () => {
  it("is served without a key, as JSON", () => {
    expect(response.statusCode).toBe(200);
    expect(response.headers["content-type"]).toBe(JSON_CONTENT_TYPE);
  });

  it("is a valid OpenAPI 3.1 document", async () => {
    expect(doc.openapi).toMatch(/^3\.1\.\d+$/);
    const validator = new Validator();
    const result = await validator.validate(doc);
    // On failure, the validator's errors say exactly what the generator got wrong.
    expect(result.errors, JSON.stringify(result.errors, null, 2)).toBeUndefined();
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("compiles under strict JSON Schema 2020-12 (every schema, every $ref)", () => {
    expect(() => new Oracle(doc)).not.toThrow();
  });

  it("documents for every operation a 200 JSON schema, 401, 422 and 500, behind the API key", () => {
    const ids = new Set<string>();
    for (const [path, { get }] of Object.entries(paths)) {
      const responses = dereference(doc, get.responses) as Record<string, Json>;
      for (const status of ["200", "401", "422", "500"]) {
        const content = responses[status]?.content as Record<string, Json> | undefined;
        expect(content?.["application/json"]?.schema, `${path} ${status}`).toBeDefined();
      }
      expect(get.security ?? doc.security, path).toEqual([{ ApiKeyAuth: [] }]);
      expect(ids.has(String(get.operationId)), `${path}: duplicate operationId`).toBe(false);
      ids.add(String(get.operationId));
    }
    // One path and one operationId per registered operation, whatever is loaded.
    expect(
      Object.keys(paths)
        .filter((path) => path.startsWith("/v1/"))
        .sort(),
    ).toEqual(operations.map(pathOf).sort());
    expect(ids.size).toBe(operations.length);
  });

  it("documents /v1/me behind the API key and the admin API behind the bearer token", () => {
    expect(allPaths["/v1/me"]?.get?.security).toBeUndefined();
    const admin = Object.entries(allPaths).filter(([path]) => path.startsWith("/admin/v1/"));
    expect(admin.map(([path]) => path).sort()).toEqual([
      "/admin/v1/keys",
      "/admin/v1/keys/{id}",
      "/admin/v1/keys/{id}/roll",
      "/admin/v1/keys/{id}/usage",
    ]);
    const methods = ["get", "post", "patch", "delete"];
    for (const [path, item] of admin) {
      for (const [method, operation] of Object.entries(item)) {
        if (!methods.includes(method)) continue;
        expect(operation.security, `${method} ${path}`).toEqual([{ bearerAuth: [] }]);
        expect(operation.tags).toEqual(["admin"]);
        const responses = dereference(doc, operation.responses) as Record<string, Json>;
        expect(Object.keys(responses), `${method} ${path}`).toEqual(
          expect.arrayContaining(["401", "503"]),
        );
      }
    }
  });

  it("its examples satisfy its own schemas (parameters and 200 bodies)", () => {
    const ajv = new Ajv2020.default({ strict: true, allowUnionTypes: true });
    addFormats.default(ajv);
    ajv.addFormat("decimal", true);
    const failures: string[] = [];
    for (const [path, { get }] of Object.entries(paths)) {
      for (const param of get.parameters as Json[]) {
        const validate = ajv.compile(param.schema as Json);
        for (const [key, example] of Object.entries(
          (param.examples ?? {}) as Record<string, Json>,
        )) {
          if (!validate(example.value)) {
            failures.push(
              `${path} ${String(param.name)} ${key}: ${ajv.errorsText(validate.errors)}`,
            );
          }
        }
      }
      const ok = (dereference(doc, get.responses) as Record<string, Json>)["200"]?.content as
        | Record<string, Json>
        | undefined;
      const media = ok?.["application/json"] ?? {};
      const validate = ajv.compile(media.schema as Json);
      for (const [key, example] of Object.entries((media.examples ?? {}) as Record<string, Json>)) {
        if (!validate(example.value))
          failures.push(`${path} 200 ${key}: ${ajv.errorsText(validate.errors)}`);
      }
    }
    expect(failures).toEqual([]);
  });
});
