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
  /** Standard input, for `ucs recipe -`. */
  stdin?: AsyncIterable<string | Buffer>;
}

/**
 * Control characters that reach a terminal from input (an argument, a value, an answer, a
 * server's message): C0 but tab and newline, which are layout, DEL, and C1 (U+0080 to
 * U+009F, where a terminal reads `\u009b` as ESC [).
 */
// biome-ignore lint/suspicious/noControlCharactersInRegex: matching them is the point.
const CONTROL = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/g;

const hex = (char: string) => (char.codePointAt(0) as number).toString(16).padStart(2, "0");

/**
 * `text` with every control character written visibly: `\x1b` for C0 and DEL, `\u009b`
 * for C1, so input can neither colour nor move nor clear the terminal it is printed on.
 *
 * @example
 * visible("\u001b[31mX"); // "\\x1b[31mX"
 */
export function visible(text: string): string {
  return text.replace(CONTROL, (char) =>
    char.charCodeAt(0) < 0x80 ? `\\x${hex(char)}` : `\\u00${hex(char)}`,
  );
}

/** The same for JSON text: `\u001b`, which inside a JSON string is the same character. */
function visibleJson(text: string): string {
  return text.replace(CONTROL, (char) => `\\u00${hex(char)}`);
}

/** A URL's `scheme://userinfo@`, anywhere in a text. */
const URL_CREDENTIALS = /\b([A-Za-z][A-Za-z0-9+.-]*:\/\/)([^\s/?#@]+)@/g;

/** A URL's userinfo as the user wrote it (`user:secret`), or undefined. */
function userinfoOf(url: string): string | undefined {
  const start = url.indexOf("://");
  if (start === -1) return undefined;
  const rest = url.slice(start + 3);
  const end = rest.search(/[/?#]/);
  const authority = end === -1 ? rest : rest.slice(0, end);
  const at = authority.lastIndexOf("@");
  return at === -1 ? undefined : authority.slice(0, at);
}

/** `user:secret` as `user:***`; a userinfo without a colon may be a token: `***`. */
function hidden(userinfo: string): string {
  const colon = userinfo.indexOf(":");
  return colon === -1 ? "***" : `${userinfo.slice(0, colon)}:***`;
}

/** `text` with `url`'s credentials hidden wherever `url`'s `://userinfo@` appears. */
function hideCredentialsOf(url: string | undefined, text: string): string {
  const userinfo = url === undefined ? undefined : userinfoOf(url);
  return userinfo === undefined
    ? text
    : text.replaceAll(`://${userinfo}@`, `://${hidden(userinfo)}@`);
}

/**
 * `text` with the credentials of every URL in it hidden, and those of `url` as the user
 * wrote it (however malformed: `http://us er:secret@host` is no URL, but is printed back
 * in fetch's error).
 *
 * @example
 * redactUrls("GET http://user:secret@host:3000/v1"); // "GET http://user:***@host:3000/v1"
 */
export function redactUrls(text: string, url?: string): string {
  return hideCredentialsOf(url, text).replace(
    URL_CREDENTIALS,
    (_match, scheme: string, info: string) => `${scheme}${hidden(info)}@`,
  );
}

/**
 * The one way the command line writes: every text made {@link visible} (with `--json`,
 * stdout in JSON's own escapes, so it stays the same JSON). On stderr, where messages go,
 * every URL's credentials are hidden ({@link redactUrls}); on stdout, where answers go,
 * those of `url` only: an answer's own URLs are the answer.
 */
export function guardedIo(io: CliIo, json: boolean, url: string | undefined): CliIo {
  const toStdout = json ? visibleJson : visible;
  return {
    stdout: { write: (text: string) => io.stdout.write(toStdout(hideCredentialsOf(url, text))) },
    stderr: { write: (text: string) => io.stderr.write(visible(redactUrls(text, url))) },
    env: io.env,
    ...(io.stdin ? { stdin: io.stdin } : {}),
  };
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
