/**
 * What the command line prints: an answer as `field: value` lines or as the raw JSON body
 * (`--json`), an error as REST's problems, one a line; and the exit code it means.
 */
import type { Problem } from "../kit/errors.js";

/** Exit codes: an answer, anything else, invalid input. */
export const EXIT_OK = 0;
export const EXIT_FAILURE = 1;
export const EXIT_INVALID = 2;

export interface CliIo {
  stdout: { write(text: string): unknown };
  stderr: { write(text: string): unknown };
  /** UCS_URL and UCS_API_KEY are read from here. */
  env: Record<string, string | undefined>;
}

/** A value on one line: text as it is, numbers, booleans and null as words, the rest as JSON. */
export function formatValue(value: unknown): string {
  if (typeof value === "string") return value;
  if (typeof value === "number" || typeof value === "boolean" || value === null) {
    return String(value);
  }
  return JSON.stringify(value);
}

/** Readable output: one `field: value` line per field of the answer. */
function readable(body: unknown): string {
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    return `${formatValue(body)}\n`;
  }
  const entries = Object.entries(body);
  const width = Math.max(0, ...entries.map(([name]) => name.length));
  return entries
    .map(([name, value]) => `${`${name}:`.padEnd(width + 2)}${formatValue(value)}\n`)
    .join("");
}

function problemLines(detail: Problem[]): string {
  return detail
    .map(
      (problem) =>
        `  ${problem.loc.slice(1).join(".") || "(request)"}: ${problem.msg} [${problem.type}]\n`,
    )
    .join("");
}

/** Prints an answer or an error body as `--json` or readable output; returns the exit code. */
export function report(
  io: CliIo,
  json: boolean,
  status: number,
  body: unknown,
  raw?: string,
): number {
  const code = status === 200 ? EXIT_OK : status === 422 ? EXIT_INVALID : EXIT_FAILURE;
  if (json) {
    io.stdout.write(`${raw ?? JSON.stringify(body)}\n`);
    return code;
  }
  if (status === 200) {
    io.stdout.write(readable(body));
    return code;
  }
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (status === 422 && Array.isArray(detail)) {
    io.stderr.write(`Invalid input:\n${problemLines(detail as Problem[])}`);
  } else {
    io.stderr.write(
      `Error (${status}): ${typeof detail === "string" ? detail : (raw ?? JSON.stringify(body))}\n`,
    );
  }
  return code;
}
