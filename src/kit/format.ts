/**
 * Number formatting for operation descriptions, without `Intl`: the first use of
 * `toLocaleString` pages ICU's locale data into every service process.
 */

/**
 * `value` with its integer digits grouped by threes with commas, as `toLocaleString("en-US")`
 * writes an integer.
 *
 * @example
 * groupDigits(10000); // "10,000"
 */
export function groupDigits(value: number): string {
  const digits = String(Math.trunc(Math.abs(value)));
  let grouped = "";
  for (let end = digits.length; end > 0; end -= 3) {
    const part = digits.slice(Math.max(0, end - 3), end);
    grouped = grouped === "" ? part : `${part},${grouped}`;
  }
  return value < 0 && Math.trunc(value) !== 0 ? `-${grouped}` : grouped;
}
