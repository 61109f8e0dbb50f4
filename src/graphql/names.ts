/**
 * GraphQL names for registry paths: areas and operations in camelCase, generated types in
 * PascalCase. REST paths and GraphQL fields stay in one-to-one correspondence through these.
 */
import type { AnyOperation } from "../kit/define.js";

/** What a GraphQL name may be; enum values must also not be `true`, `false` or `null`. */
const GRAPHQL_NAME = /^[_A-Za-z][_0-9A-Za-z]*$/;

function words(text: string): string[] {
  return text.split(/[-/_]+/).filter(Boolean);
}

export const capitalize = (word: string) => word.charAt(0).toUpperCase() + word.slice(1);

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

/**
 * Whether `value` can be a GraphQL enum value: a GraphQL name other than `true`, `false`
 * and `null`.
 *
 * @example
 * isEnumName("utf8"); // true
 * isEnumName("utf-8"); // false
 */
export const isEnumName = (value: string) =>
  GRAPHQL_NAME.test(value) && value !== "true" && value !== "false" && value !== "null";
