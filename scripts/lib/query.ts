/** Dev tooling shared by the bench, the soak and the tests: example input as a URL query. */

/**
 * A query string for typed input: lists as repeated parameters, the rest as text.
 *
 * @example
 * queryOf({ numbers: [1, 2], unit: "m" }); // "numbers=1&numbers=2&unit=m"
 */
export function queryOf(input: Record<string, unknown>): string {
  const params = new URLSearchParams();
  for (const [name, value] of Object.entries(input)) {
    for (const item of Array.isArray(value) ? value : [value]) params.append(name, String(item));
  }
  return params.toString();
}
