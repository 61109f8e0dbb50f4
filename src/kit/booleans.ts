/**
 * The words a boolean query parameter accepts, as Pydantic v2 reads them (any case), so
 * clients of the FastAPI service keep working: `inclusive=yes` is `true`.
 */

/** Every accepted spelling, lowercase, and the value it stands for. */
export const BOOLEAN_WORDS: ReadonlyMap<string, boolean> = new Map([
  ["true", true],
  ["1", true],
  ["yes", true],
  ["y", true],
  ["on", true],
  ["t", true],
  ["false", false],
  ["0", false],
  ["no", false],
  ["n", false],
  ["off", false],
  ["f", false],
]);

/** Longest accepted word: a longer value is refused without lowercasing it. */
const LONGEST = Math.max(...[...BOOLEAN_WORDS.keys()].map((word) => word.length));

/**
 * The boolean `raw` spells, in any case, or `undefined` when it spells none.
 *
 * @example
 * parseBoolean("Yes"); // true
 * parseBoolean("OFF"); // false
 * parseBoolean("maybe"); // undefined
 */
export function parseBoolean(raw: string): boolean | undefined {
  if (raw.length > LONGEST) return undefined;
  return BOOLEAN_WORDS.get(raw.toLowerCase());
}
