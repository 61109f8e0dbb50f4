/**
 * A response checker driven only by the OpenAPI document: it knows nothing of the
 * operations' code. For a response to `GET <path>` it checks that
 *
 * - the status is one the document lists for that path;
 * - the content type is the one documented for that status (and the contract's exact
 *   `application/json; charset=utf-8`);
 * - the body is JSON, free of `NaN`/`Infinity` tokens, and validates against the documented
 *   schema for that status (`$ref`s to components resolved);
 *
 * and counts every response it sees, by operation and status, for the fuzz summary.
 */

import type { ValidateFunction } from "ajv/dist/2020.js";
import Ajv2020 from "ajv/dist/2020.js";
import addFormats from "ajv-formats";
import { isJsonObject } from "../../scripts/lib/json-body.js";

type Json = Record<string, unknown>;

/** What the oracle needs of a response (a light-my-request response fits). */
export interface ObservedResponse {
  statusCode: number;
  headers: Record<string, string | string[] | number | undefined>;
  body: string;
}

/** The contract's one content type for every JSON answer. */
export const JSON_CONTENT_TYPE = "application/json; charset=utf-8";

/** Resolves a local JSON pointer (`#/components/responses/X`) in `doc`. */
export function resolvePointer(doc: unknown, ref: string): unknown {
  if (!ref.startsWith("#/")) throw new Error(`only local $refs are supported, not '${ref}'`);
  let node: unknown = doc;
  for (const raw of ref.slice(2).split("/")) {
    const key = decodeURIComponent(raw).replaceAll("~1", "/").replaceAll("~0", "~");
    if (node === null || typeof node !== "object" || !Object.hasOwn(node, key)) {
      throw new Error(`unresolvable $ref '${ref}'`);
    }
    node = (node as Json)[key];
  }
  return node;
}

/** A deep copy of `node` with every local `$ref` replaced by what it points to. */
export function dereference(doc: unknown, node: unknown, seen: string[] = []): unknown {
  if (Array.isArray(node)) return node.map((item) => dereference(doc, item, seen));
  if (node === null || typeof node !== "object") return node;
  const object = node as Json;
  if (typeof object.$ref === "string") {
    const ref = object.$ref;
    if (seen.includes(ref)) throw new Error(`recursive $ref '${ref}' (${seen.join(" → ")})`);
    const { $ref: _, ...siblings } = object;
    const target = dereference(doc, resolvePointer(doc, ref), [...seen, ref]) as Json;
    return { ...target, ...(dereference(doc, siblings, seen) as Json) };
  }
  return Object.fromEntries(
    Object.entries(object).map(([key, value]) => [key, dereference(doc, value, seen)]),
  );
}

/**
 * Where `NaN`, `Infinity` or `-Infinity` appears as a bare token, outside any JSON
 * string, or undefined. (Inside strings they are just text: `case/detect` echoes words.)
 */
export function findNonFiniteToken(body: string): string | undefined {
  let inString = false;
  for (let index = 0; index < body.length; index += 1) {
    const char = body[index];
    if (inString) {
      if (char === "\\") index += 1;
      else if (char === '"') inString = false;
    } else if (char === '"') {
      inString = true;
    } else if (char === "N" && body.startsWith("NaN", index)) {
      return `NaN at offset ${index}`;
    } else if (char === "I" && body.startsWith("Infinity", index)) {
      return `Infinity at offset ${index}`;
    }
  }
  return undefined;
}

const headerOf = (headers: ObservedResponse["headers"], name: string): string | undefined => {
  const value = headers[name];
  return Array.isArray(value) ? value.join(", ") : value === undefined ? undefined : String(value);
};

/** Counts kept for the summary. */
export interface OracleCounts {
  /** Responses checked, by path, then by status. */
  byOperation: Record<string, Record<string, number>>;
  total: number;
  serverErrors: number;
  /** Error responses (status ≥ 400) whose body is not a JSON document. */
  errorsWithoutJsonBody: number;
  undocumentedStatus: number;
  undocumentedContentType: number;
  schemaViolations: number;
  nonFiniteTokens: number;
}

/** The documented response for one path and status. */
interface DocumentedResponse {
  contentTypes: string[];
  validators: Map<string, ValidateFunction>;
}

/**
 * Checks responses against an OpenAPI 3.1 document.
 *
 * @example
 * const oracle = new Oracle(doc);
 * const problems = oracle.check("/v1/math/sum", await app.inject({ url, headers }));
 * expect(problems).toEqual([]);
 */
export class Oracle {
  readonly counts: OracleCounts = {
    byOperation: {},
    total: 0,
    serverErrors: 0,
    errorsWithoutJsonBody: 0,
    undocumentedStatus: 0,
    undocumentedContentType: 0,
    schemaViolations: 0,
    nonFiniteTokens: 0,
  };
  private readonly ajv: InstanceType<typeof Ajv2020.default>;
  private readonly responses = new Map<string, Map<string, DocumentedResponse>>();

  constructor(doc: Json) {
    // Strict: a keyword the validator does not know is an error in the document, not ignored.
    // `decimal` is the document's own format, always stated together with its `pattern`.
    this.ajv = new Ajv2020.default({ strict: true, allErrors: true, allowUnionTypes: true });
    addFormats.default(this.ajv);
    this.ajv.addFormat("decimal", true);
    const paths = (doc.paths ?? {}) as Record<string, Json>;
    for (const [path, item] of Object.entries(paths)) {
      const get = item.get as Json | undefined;
      const documented = new Map<string, DocumentedResponse>();
      for (const [status, raw] of Object.entries((get?.responses ?? {}) as Json)) {
        const response = dereference(doc, raw) as Json;
        const content = (response.content ?? {}) as Record<string, Json>;
        const validators = new Map<string, ValidateFunction>();
        for (const [mediaType, media] of Object.entries(content)) {
          if (media.schema !== undefined) {
            validators.set(mediaType, this.ajv.compile(media.schema as Json));
          }
        }
        documented.set(status, { contentTypes: Object.keys(content), validators });
      }
      this.responses.set(path, documented);
    }
  }

  /** The paths the document describes. */
  get paths(): string[] {
    return [...this.responses.keys()];
  }

  /** The statuses documented for `path`. */
  statusesOf(path: string): string[] {
    return [...(this.responses.get(path)?.keys() ?? [])];
  }

  /**
   * Validates an already parsed body against the documented schema of `path` and `status`
   * (for GraphQL results, which carry the same objects). Not counted.
   */
  validate(path: string, status: string, body: unknown): string[] {
    const validate = this.responses.get(path)?.get(status)?.validators.get("application/json");
    if (!validate) return [`no documented application/json schema for ${path} ${status}`];
    return validate(body) ? [] : [this.ajv.errorsText(validate.errors)];
  }

  /**
   * Counts a response the document does not describe (`/graphql`) against the two rules
   * every answer keeps: no status ≥ 500, no error without a JSON body. Returns what it broke.
   */
  observe(response: ObservedResponse): string[] {
    const problems: string[] = [];
    if (response.statusCode >= 500) {
      this.counts.serverErrors += 1;
      problems.push(`server error ${response.statusCode}`);
    }
    if (response.statusCode >= 400 && !isJsonObject(response.body)) {
      this.counts.errorsWithoutJsonBody += 1;
      problems.push(`error ${response.statusCode} without a JSON body`);
    }
    return problems;
  }

  /**
   * Checks one response to `GET path` and counts it. Returns what is wrong with it (empty
   * when nothing is), with the parsed body for further checks by the caller.
   */
  check(path: string, response: ObservedResponse): { problems: string[]; body: unknown } {
    const problems: string[] = [];
    const status = String(response.statusCode);
    const counts = this.counts;
    counts.total += 1;
    const perPath = counts.byOperation[path] ?? {};
    counts.byOperation[path] = perPath;
    perPath[status] = (perPath[status] ?? 0) + 1;
    if (response.statusCode >= 500) {
      counts.serverErrors += 1;
      problems.push(`server error ${status}`);
    }

    const documented = this.responses.get(path);
    if (!documented) throw new Error(`${path} is not a path of the document`);
    const expected = documented.get(status);
    if (!expected) {
      counts.undocumentedStatus += 1;
      problems.push(`status ${status} is not documented for ${path}`);
    }

    const contentType = headerOf(response.headers, "content-type") ?? "";
    const mediaType = contentType.split(";", 1)[0]?.trim().toLowerCase() ?? "";
    const documentedTypes = expected?.contentTypes ?? [];
    if (
      contentType !== JSON_CONTENT_TYPE ||
      (expected !== undefined && !documentedTypes.includes(mediaType))
    ) {
      counts.undocumentedContentType += 1;
      problems.push(
        `content-type '${contentType}' is not ${
          expected ? documentedTypes.map((type) => `'${type}'`).join(" or ") : "JSON"
        } as '${JSON_CONTENT_TYPE}'`,
      );
    }

    const nonFinite = findNonFiniteToken(response.body);
    if (nonFinite) {
      counts.nonFiniteTokens += 1;
      problems.push(`body has a bare ${nonFinite}`);
    }
    let body: unknown;
    try {
      body = JSON.parse(response.body);
    } catch {
      if (response.statusCode >= 400) counts.errorsWithoutJsonBody += 1;
      counts.schemaViolations += 1;
      problems.push(`body is not JSON: ${response.body.slice(0, 200)}`);
      return { problems, body: undefined };
    }
    const validate = expected?.validators.get(mediaType);
    if (expected && validate && !validate(body)) {
      counts.schemaViolations += 1;
      problems.push(
        `body does not match the documented ${status} schema: ${this.ajv.errorsText(validate.errors)}`,
      );
    }
    return { problems, body };
  }
}
