/**
 * `ucs keys create|list|show|update|revoke|roll|usage`: managed keys on the
 * local store (DATA_DIR / DATABASE_URL, opened and closed per command) or on a running
 * service's admin API (`--url`, with ADMIN_TOKEN). Both modes answer as the admin API does
 * (status and body), so one printer serves both, and arguments are checked with the admin
 * API's own rules (src/access/keys/rules.ts) before anything is sent or stored.
 *
 * Secrets: a key's secret is printed by create and roll only; the admin token never (it is
 * masked wherever it would appear).
 */
import type { z } from "zod";
import {
  keyCreateBody,
  keyListQuery,
  keyObjectOf,
  keyPatchBody,
  rollBody,
  usageQuery,
  usageRange,
} from "../access/keys/rules.js";
import { InvalidCursorError, type KeyStore, openKeyStore } from "../access/keys/store.js";
import { locate, toProblems } from "../core/problems.js";
import type { Problem } from "../kit/errors.js";
import { PROGRAM } from "./help.js";
import {
  type CliIo,
  EXIT_FAILURE,
  EXIT_INVALID,
  EXIT_OK,
  formatValue,
  guardedIo,
} from "./output.js";

/** How long one admin API request may take before the command gives up. */
export const KEYS_REQUEST_TIMEOUT_MS = 30_000;
/** The service's default DATA_DIR (src/config.ts), for the local store. */
const DEFAULT_DATA_DIR = "./data";

const COMMAND = `${PROGRAM} keys`;

type Action = "create" | "list" | "show" | "update" | "revoke" | "roll" | "usage";

/** Each subcommand: whether it takes an ID, its options (and which take no value), its usage. */
const ACTIONS: Record<
  Action,
  { id: boolean; options: string[]; switches?: string[]; usage: string; summary: string }
> = {
  create: {
    id: false,
    options: ["name", "scopes", "plan", "expires", "meta"],
    usage: "--name NAME [--scopes S,…] [--plan LIMIT/WINDOW] [--expires TIME] [--meta JSON]",
    summary: "creates a key and prints its secret, once",
  },
  list: {
    id: false,
    options: ["limit", "cursor"],
    usage: "[--limit N] [--cursor CURSOR]",
    summary: "lists the keys not revoked, a page at a time",
  },
  show: { id: true, options: [], usage: "ID", summary: "prints one key" },
  update: {
    id: true,
    options: ["name", "scopes", "plan", "expires", "meta", "disable", "enable"],
    switches: ["disable", "enable"],
    usage:
      "ID [--name NAME] [--scopes S,…] [--plan LIMIT/WINDOW|none] [--expires TIME|never] [--disable|--enable] [--meta JSON]",
    summary: "changes the fields given",
  },
  revoke: { id: true, options: [], usage: "ID", summary: "revokes a key for good" },
  roll: {
    id: true,
    options: ["overlap"],
    usage: "ID [--overlap SECONDS]",
    summary: "gives a key a new secret and prints it, once",
  },
  usage: {
    id: true,
    options: ["from", "to"],
    usage: "ID [--from YYYY-MM-DD] [--to YYYY-MM-DD]",
    summary: "prints a key's calls and units per day and operation",
  },
};

/** Options of every subcommand: where the keys are, and how to print. */
const COMMON_VALUED = new Set(["url", "admin-token", "data-dir", "database-url"]);
const COMMON_SWITCHES = new Set(["json", "help"]);

/** The body field or query parameter each option sets, for messages that name the flag. */
const FLAG_OF: Record<string, string> = {
  name: "--name",
  scopes: "--scopes",
  plan: "--plan",
  expiresAt: "--expires",
  meta: "--meta",
  disabled: "--disable/--enable",
  overlapSeconds: "--overlap",
  limit: "--limit",
  cursor: "--cursor",
  from: "--from",
  to: "--to",
};

/** What a command asks, as the admin API would be asked it. */
export interface KeysCommand {
  action: Action;
  id?: string;
  /** The JSON body (create, update, roll), already valid under the API's rules. */
  body?: Record<string, unknown>;
  /** The query (list, usage), valid likewise. */
  query?: Record<string, string | number>;
}

/** An answer, from the admin API or from the local store in its shape. */
export interface Answer {
  status: number;
  body: unknown;
  /** The body as the service sent it; printed as is by --json. */
  raw?: string;
}

/** One admin API request: what the remote mode sends. */
export interface AdminRequest {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  /** The path and query, from /admin/v1/keys. */
  path: string;
  body?: Record<string, unknown>;
}

interface Options {
  json: boolean;
  help: boolean;
  url?: string;
  adminToken?: string;
  dataDir?: string;
  databaseUrl?: string;
  values: Map<string, string>;
}

/** A command line the command cannot read: printed with the usage, exit 2. */
class UsageError extends Error {}

function parse(argv: readonly string[]): {
  action?: Action;
  positionals: string[];
  options: Options;
} {
  const options: Options = { json: false, help: false, values: new Map() };
  const positionals: string[] = [];
  const first = argv[0];
  const action =
    first !== undefined && Object.hasOwn(ACTIONS, first) ? (first as Action) : undefined;
  if (first !== undefined && !first.startsWith("-") && !action) {
    throw new UsageError(`no subcommand '${first}'`);
  }
  const spec = action ? ACTIONS[action] : undefined;
  for (let index = action ? 1 : 0; index < argv.length; index += 1) {
    const arg = argv[index] as string;
    if (arg === "-h") {
      options.help = true;
      continue;
    }
    if (!arg.startsWith("--")) {
      positionals.push(arg);
      continue;
    }
    const equals = arg.indexOf("=");
    const name = equals < 0 ? arg.slice(2) : arg.slice(2, equals);
    const own = spec?.options.includes(name) ?? false;
    if ((COMMON_SWITCHES.has(name) || spec?.switches?.includes(name)) && equals < 0) {
      if (name === "json" || name === "help") options[name] = true;
      else setOnce(options.values, name, "true");
      continue;
    }
    if (!own && !COMMON_VALUED.has(name)) {
      throw new UsageError(
        `unknown option --${name}${action ? ` for '${COMMAND} ${action}'` : ""}`,
      );
    }
    let value: string | undefined;
    if (equals >= 0) value = arg.slice(equals + 1);
    else if (index + 1 < argv.length && !(argv[index + 1] as string).startsWith("--")) {
      index += 1;
      value = argv[index];
    }
    if (value === undefined) throw new UsageError(`--${name} needs a value`);
    if (name === "url") options.url = value;
    else if (name === "admin-token") options.adminToken = value;
    else if (name === "data-dir") options.dataDir = value;
    else if (name === "database-url") options.databaseUrl = value;
    else setOnce(options.values, name, value);
  }
  return { ...(action ? { action } : {}), positionals, options };
}

function setOnce(values: Map<string, string>, name: string, value: string): void {
  if (values.has(name)) throw new UsageError(`--${name} is given twice`);
  values.set(name, value);
}

const INTEGER = /^-?[0-9]+$/;

/** A number the schema then bounds; text that is no integer stays text, for its problem. */
const integerOf = (text: string): number | string => (INTEGER.test(text) ? Number(text) : text);

/**
 * The command's body or query from its options, checked by the admin API's schemas:
 * problems in the API's 422 shape (`loc` from "body" or "query"), or the command.
 */
function build(
  action: Action,
  id: string | undefined,
  values: Map<string, string>,
): KeysCommand | Problem[] {
  const problems: Problem[] = [];
  const raw: Record<string, unknown> = {};
  const value = (name: string) => values.get(name);
  if (value("name") !== undefined) raw.name = value("name");
  const scopes = value("scopes");
  // An empty --scopes is an empty list, which the rules refuse by name.
  if (scopes !== undefined)
    raw.scopes = scopes === "" ? [] : scopes.split(",").map((s) => s.trim());
  const plan = value("plan");
  if (plan !== undefined) {
    const match = /^([^/]*)\/([^/]*)$/.exec(plan);
    if (plan === "none" && action === "update") raw.plan = null;
    else if (match) {
      raw.plan = {
        limit: integerOf(match[1] as string),
        windowSeconds: integerOf(match[2] as string),
      };
    } else {
      problems.push(
        problem(
          "body",
          ["plan"],
          `expected LIMIT/WINDOWSECONDS such as 100/60${action === "update" ? ", or none" : ""}`,
        ),
      );
    }
  }
  const expires = value("expires");
  if (expires !== undefined) raw.expiresAt = expires === "never" ? null : expires;
  const meta = value("meta");
  if (meta !== undefined) {
    try {
      raw.meta = JSON.parse(meta);
    } catch {
      problems.push(problem("body", ["meta"], 'expected a JSON object, such as \'{"team":"ci"}\''));
    }
  }
  if (values.has("disable") && values.has("enable")) {
    problems.push(problem("body", ["disabled"], "give --disable or --enable, not both"));
  } else if (values.has("disable")) raw.disabled = true;
  else if (values.has("enable")) raw.disabled = false;
  if (value("overlap") !== undefined) raw.overlapSeconds = integerOf(value("overlap") as string);

  const checked = (schema: z.ZodObject, input: Record<string, unknown>, source: string) => {
    const result = schema.safeParse(input);
    if (result.success) return result.data as Record<string, unknown>;
    // A field whose text already failed is not reported twice.
    const known = new Set(problems.map((p) => p.loc[1]));
    for (const found of locate(toProblems(result.error.issues, schema, input), source)) {
      if (!known.has(found.loc[1])) problems.push(found);
    }
    return undefined;
  };
  let command: KeysCommand | undefined;
  switch (action) {
    case "create": {
      const body = checked(keyCreateBody, raw, "body");
      if (body) command = { action, body };
      break;
    }
    case "update": {
      if (Object.keys(raw).length === 0 && problems.length === 0) {
        throw new UsageError(
          "nothing to change: give --name, --scopes, --plan, --expires, --disable, --enable or --meta",
        );
      }
      const body = checked(keyPatchBody, raw, "body");
      if (body) command = { action, id, body };
      break;
    }
    case "roll": {
      const body = checked(rollBody, raw, "body");
      if (body) command = { action, id, body };
      break;
    }
    case "list": {
      const input: Record<string, unknown> = {};
      if (value("limit") !== undefined) input.limit = value("limit");
      if (value("cursor") !== undefined) input.cursor = value("cursor");
      // The default page is the API's: only what was given is sent.
      if (checked(keyListQuery, input, "query")) {
        command = { action, query: input as Record<string, string> };
      }
      break;
    }
    case "usage": {
      const input: Record<string, string> = {};
      if (value("from") !== undefined) input.from = value("from") as string;
      if (value("to") !== undefined) input.to = value("to") as string;
      if (checked(usageQuery, input, "query")) {
        const range = usageRange(input);
        if ("error" in range) problems.push(problem("query", ["from"], range.error));
        else command = { action, id, query: input };
      }
      break;
    }
    default:
      command = { action, ...(id === undefined ? {} : { id }) };
  }
  return problems.length > 0 || !command ? problems : command;
}

function problem(source: string, loc: string[], message: string): Problem {
  return { loc: [source, ...loc], msg: `Value error, ${message}`, type: "value_error" };
}

const keyPath = (id: string) => `/admin/v1/keys/${encodeURIComponent(id)}`;

function withQuery(path: string, query: Record<string, string | number> | undefined): string {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query ?? {})) search.append(name, String(value));
  const text = search.toString();
  return text ? `${path}?${text}` : path;
}

/**
 * The admin API request of a command, as docs/keys.md states it.
 *
 * @example
 * requestFor({ action: "roll", id: "key_1", body: { overlapSeconds: 60 } });
 * // { method: "POST", path: "/admin/v1/keys/key_1/roll", body: { overlapSeconds: 60 } }
 */
export function requestFor(command: KeysCommand): AdminRequest {
  const id = command.id ?? "";
  switch (command.action) {
    case "create":
      return { method: "POST", path: "/admin/v1/keys", body: command.body ?? {} };
    case "list":
      return { method: "GET", path: withQuery("/admin/v1/keys", command.query) };
    case "show":
      return { method: "GET", path: keyPath(id) };
    case "update":
      return { method: "PATCH", path: keyPath(id), body: command.body ?? {} };
    case "revoke":
      return { method: "DELETE", path: keyPath(id) };
    case "roll":
      return { method: "POST", path: `${keyPath(id)}/roll`, body: command.body ?? {} };
    case "usage":
      return { method: "GET", path: withQuery(`${keyPath(id)}/usage`, command.query) };
  }
}

/**
 * Sends `request` to the service at `url` with the admin token, and reads its answer.
 * Rejects on a network fault or the timeout; an HTTP error is an answer.
 */
export async function sendAdmin(
  request: AdminRequest,
  url: string,
  token: string,
  fetchImpl: typeof fetch = fetch,
): Promise<Answer> {
  const headers: Record<string, string> = {
    accept: "application/json",
    authorization: `Bearer ${token}`,
  };
  if (request.body !== undefined) headers["content-type"] = "application/json";
  const response = await fetchImpl(`${url.replace(/\/+$/, "")}${request.path}`, {
    method: request.method,
    headers,
    ...(request.body === undefined ? {} : { body: JSON.stringify(request.body) }),
    signal: AbortSignal.timeout(KEYS_REQUEST_TIMEOUT_MS),
  });
  const raw = await response.text();
  let body: unknown = raw;
  try {
    body = raw === "" ? null : JSON.parse(raw);
  } catch {
    // Not JSON (a proxy's page): reported as it came.
  }
  return { status: response.status, body, raw };
}

const notFound = (id: string): Answer => ({
  status: 404,
  body: { detail: `No key has the id '${id}'` },
});

/** The command run on the local store, answered as the admin API answers it. */
export async function runLocal(store: KeyStore, command: KeysCommand): Promise<Answer> {
  const id = command.id ?? "";
  const body = command.body ?? {};
  switch (command.action) {
    case "create": {
      const input = body as z.infer<typeof keyCreateBody>;
      const { record, secret } = await store.create(input);
      return { status: 201, body: { ...keyObjectOf(record), key: secret } };
    }
    case "list": {
      const query = keyListQuery.parse(command.query ?? {});
      try {
        const page = await store.list(query);
        return {
          status: 200,
          body: { keys: page.keys.map(keyObjectOf), nextCursor: page.nextCursor },
        };
      } catch (error) {
        if (!(error instanceof InvalidCursorError)) throw error;
        return { status: 422, body: { detail: [problem("query", ["cursor"], "invalid cursor")] } };
      }
    }
    case "show": {
      const record = await store.get(id);
      return record ? { status: 200, body: keyObjectOf(record) } : notFound(id);
    }
    case "update": {
      const record = await store.update(id, body as z.infer<typeof keyPatchBody>);
      return record ? { status: 200, body: keyObjectOf(record) } : notFound(id);
    }
    case "revoke":
      return (await store.revoke(id)) ? { status: 204, body: null } : notFound(id);
    case "roll": {
      const rolled = await store.roll(id, (body as z.infer<typeof rollBody>).overlapSeconds);
      return rolled
        ? { status: 201, body: { ...keyObjectOf(rolled.record), key: rolled.secret } }
        : notFound(id);
    }
    case "usage": {
      if (!(await store.get(id))) return notFound(id);
      const range = usageRange(command.query ?? {});
      if ("error" in range) {
        return { status: 422, body: { detail: [problem("query", ["from"], range.error)] } };
      }
      const rows = await store.usage(id, range.from, range.to);
      return {
        status: 200,
        body: {
          id,
          usage: rows.map(({ date, operation, calls, units }) => ({
            date,
            operation,
            calls,
            units,
          })),
        },
      };
    }
  }
}

// What is printed.

interface KeyView {
  id?: unknown;
  prefix?: unknown;
  name?: unknown;
  scopes?: unknown;
  plan?: { limit?: unknown; windowSeconds?: unknown } | null;
  expiresAt?: unknown;
  disabled?: unknown;
  meta?: unknown;
  createdAt?: unknown;
  lastUsedAt?: unknown;
  key?: unknown;
}

function planText(plan: KeyView["plan"]): string {
  if (plan === null || plan === undefined) return "none (the server's)";
  return `${formatValue(plan.limit)} units per ${formatValue(plan.windowSeconds)} s`;
}

const listText = (value: unknown) =>
  Array.isArray(value) ? value.map(formatValue).join(",") || "(none)" : formatValue(value);

const orNever = (value: unknown) =>
  value === null || value === undefined ? "never" : formatValue(value);

/** One key as `field: value` lines; the secret, when there is one, last and said to be once. */
function keyLines(key: KeyView): string {
  const rows: [string, string][] = [
    ["id", formatValue(key.id)],
    ["prefix", formatValue(key.prefix)],
    ["name", formatValue(key.name)],
    ["scopes", listText(key.scopes)],
    ["plan", planText(key.plan)],
    ["expiresAt", orNever(key.expiresAt)],
    ["disabled", formatValue(key.disabled)],
    ["meta", formatValue(key.meta)],
    ["createdAt", formatValue(key.createdAt)],
    ["lastUsedAt", orNever(key.lastUsedAt)],
  ];
  let text = rows.map(([name, value]) => `${`${name}:`.padEnd(12)}${value}\n`).join("");
  if (typeof key.key === "string") text += `\nKey (shown once): ${key.key}\n`;
  return text;
}

function table(header: string[], rows: string[][]): string {
  const widths = header.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => (row[column] as string).length)),
  );
  return [header, ...rows]
    .map((row) =>
      row
        .map((cell, column) => cell.padEnd(widths[column] as number))
        .join("  ")
        .trimEnd(),
    )
    .map((line) => `${line}\n`)
    .join("");
}

interface ListView {
  keys?: KeyView[];
  nextCursor?: unknown;
}

interface UsageView {
  id?: unknown;
  usage?: Record<string, unknown>[];
}

function listLines(body: ListView): string {
  const keys = Array.isArray(body.keys) ? body.keys : [];
  if (keys.length === 0) return "No keys.\n";
  let text = table(
    ["ID", "PREFIX", "NAME", "SCOPES", "PLAN", "EXPIRES", "DISABLED", "LAST USED"],
    keys.map((key) => [
      formatValue(key.id),
      formatValue(key.prefix),
      formatValue(key.name),
      listText(key.scopes),
      key.plan ? `${formatValue(key.plan.limit)}/${formatValue(key.plan.windowSeconds)}` : "-",
      orNever(key.expiresAt),
      key.disabled ? "yes" : "no",
      orNever(key.lastUsedAt),
    ]),
  );
  if (typeof body.nextCursor === "string") {
    text += `More: ${COMMAND} list --cursor ${body.nextCursor}\n`;
  }
  return text;
}

function usageLines(body: UsageView): string {
  const rows = Array.isArray(body.usage) ? body.usage : [];
  if (rows.length === 0) return `No usage for ${formatValue(body.id)} in these days.\n`;
  let calls = 0;
  let units = 0;
  for (const row of rows) {
    calls += Number(row.calls) || 0;
    units += Number(row.units) || 0;
  }
  return table(
    ["DATE", "OPERATION", "CALLS", "UNITS"],
    [
      ...rows.map((row) => [
        formatValue(row.date),
        formatValue(row.operation),
        formatValue(row.calls),
        formatValue(row.units),
      ]),
      ["total", "", String(calls), String(units)],
    ],
  );
}

/** A problem's place as the user wrote it: the flag, then any path inside its value. */
function placeOf(loc: readonly unknown[]): string {
  const [, field, ...rest] = loc.map(String);
  if (field === undefined) return "(request)";
  const flag = FLAG_OF[field] ?? field;
  return rest.length > 0 ? `${flag} (${rest.join(".")})` : flag;
}

/** Prints the answer; returns the exit code (docs/cli.md: 0, 2 invalid input, 1 the rest). */
function print(out: CliIo, json: boolean, command: KeysCommand, answer: Answer): number {
  const ok = answer.status >= 200 && answer.status < 300;
  const code = ok ? EXIT_OK : answer.status === 422 ? EXIT_INVALID : EXIT_FAILURE;
  if (json) {
    // 204 (revoke) has no body, and prints nothing.
    if (answer.status !== 204) out.stdout.write(`${answer.raw ?? JSON.stringify(answer.body)}\n`);
    return code;
  }
  const { body } = answer;
  if (ok && command.action !== "revoke" && (typeof body !== "object" || body === null)) {
    // A 2xx that is no JSON object (a proxy's page) is no answer of the admin API.
    out.stderr.write(`Error (${answer.status}): not an answer of the admin API: ${answer.raw}\n`);
    return EXIT_FAILURE;
  }
  if (ok) {
    if (command.action === "revoke") out.stdout.write(`Revoked ${command.id}.\n`);
    else if (command.action === "list") out.stdout.write(listLines(body as ListView));
    else if (command.action === "usage") out.stdout.write(usageLines(body as UsageView));
    else out.stdout.write(keyLines(body as KeyView));
    return code;
  }
  const detail = (body as { detail?: unknown } | null)?.detail;
  if (answer.status === 422 && Array.isArray(detail)) {
    const lines = (detail as Problem[]).map(
      (p) => `  ${placeOf(Array.isArray(p?.loc) ? p.loc : [])}: ${p?.msg} [${p?.type}]\n`,
    );
    out.stderr.write(`Invalid input:\n${lines.join("")}`);
  } else {
    const text = typeof detail === "string" ? detail : (answer.raw ?? JSON.stringify(answer.body));
    out.stderr.write(`Error (${answer.status}): ${text}\n`);
  }
  return code;
}

/** What every subcommand's help ends with: where the keys are, the values, the output. */
const HELP_NOTES = [
  "Where: by default the local store, DATA_DIR (default ./data) or DATABASE_URL, or",
  "--data-dir / --database-url; a running service sees a change within 5 s. With --url",
  "(or UCS_URL), the service's admin API, with the token from ADMIN_TOKEN (or",
  "--admin-token, which other users of the machine may see: prefer the variable).",
  "",
  "--plan is LIMIT/WINDOWSECONDS (100/60); --expires an RFC 3339 time (2027-01-31T00:00:00Z);",
  "--scopes '*', areas or operations, comma-separated (math,hash/hmac-md5); --meta a JSON object.",
  "--json prints the admin API's JSON body. Exit codes: 0 done, 2 invalid input, 1 anything else.",
  "",
];

/** `ucs keys --help`. */
export function keysHelp(): string {
  const width = Math.max(...Object.keys(ACTIONS).map((name) => name.length));
  return [
    `Usage: ${COMMAND} <subcommand> … [--json] [--url URL] [--data-dir DIR | --database-url URL]`,
    "",
    "Managed API keys, on the local store or on a running service.",
    "",
    "Subcommands:",
    ...Object.entries(ACTIONS).map(
      ([name, spec]) =>
        `  ${name.padEnd(width)}  ${spec.summary}\n  ${" ".repeat(width)}  ${COMMAND} ${name} ${spec.usage}`,
    ),
    "",
    ...HELP_NOTES,
  ].join("\n");
}

/** `ucs keys <subcommand> --help`. */
function actionHelp(action: Action): string {
  const spec = ACTIONS[action];
  return [
    `${COMMAND} ${action}: ${spec.summary}`,
    "",
    `Usage: ${COMMAND} ${action} ${spec.usage} [--json] [--url URL] [--data-dir DIR | --database-url URL]`,
    "",
    ...HELP_NOTES,
  ].join("\n");
}

/** Writes `text` with every occurrence of `secret` masked: the admin token is never printed. */
function masking(io: CliIo, secret: string | undefined): CliIo {
  if (!secret) return io;
  const mask = (text: string) => text.replaceAll(secret, "***");
  return {
    stdout: { write: (text: string) => io.stdout.write(mask(text)) },
    stderr: { write: (text: string) => io.stderr.write(mask(text)) },
    env: io.env,
  };
}

/**
 * Runs `ucs keys …` (argv after `keys`); resolves to the exit code. `fetchImpl` is the
 * remote mode's HTTP client (a test's recorded exchanges).
 *
 * @example
 * await runKeys(["create", "--name", "ci", "--plan", "100/60"], { stdout, stderr, env: { DATA_DIR: "/tmp/d" } });
 */
export async function runKeys(
  argv: readonly string[],
  io: CliIo,
  fetchImpl: typeof fetch = fetch,
): Promise<number> {
  let parsed: ReturnType<typeof parse>;
  const json = argv.includes("--json");
  try {
    parsed = parse(argv);
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    guardedIo(io, json, undefined).stderr.write(
      `${COMMAND}: ${error.message}; '${COMMAND} --help' shows the usage\n`,
    );
    return EXIT_INVALID;
  }
  const { action, positionals, options } = parsed;
  // A store named on the command line means the local store, whatever UCS_URL says.
  const localFlags = options.dataDir !== undefined || options.databaseUrl !== undefined;
  const url = options.url ?? (localFlags ? undefined : io.env.UCS_URL || undefined);
  const token = options.adminToken ?? (io.env.ADMIN_TOKEN || undefined);
  const databaseUrl = options.databaseUrl ?? (io.env.DATABASE_URL || undefined);
  // Everything below prints through it: control characters visible, credentials hidden.
  const out = guardedIo(masking(io, url ? token : undefined), options.json, url ?? databaseUrl);
  const fail = (message: string) => {
    out.stderr.write(`${COMMAND}: ${message}; '${COMMAND} --help' shows the usage\n`);
    return EXIT_INVALID;
  };
  if (!action) {
    (options.help ? out.stdout : out.stderr).write(keysHelp());
    return options.help ? EXIT_OK : EXIT_INVALID;
  }
  if (options.help) {
    out.stdout.write(actionHelp(action));
    return EXIT_OK;
  }
  const spec = ACTIONS[action];
  if (positionals.length > (spec.id ? 1 : 0)) {
    return fail(`'${positionals[spec.id ? 1 : 0]}' is not an option; give options as --name value`);
  }
  const id = positionals[0];
  if (spec.id && (id === undefined || id === ""))
    return fail(`'${COMMAND} ${action}' needs a key's ID`);
  if (!url && options.adminToken !== undefined) {
    return fail("--admin-token is for a running service's admin API: give --url too");
  }
  if (options.url !== undefined && localFlags) {
    return fail(
      "--url works on a running service, --data-dir and --database-url on the local store: give one",
    );
  }
  let built: KeysCommand | Problem[];
  try {
    built = build(action, id, options.values);
  } catch (error) {
    if (error instanceof UsageError) return fail(error.message);
    throw error;
  }
  if (Array.isArray(built))
    return print(out, options.json, { action }, { status: 422, body: { detail: built } });
  const command = built;
  try {
    if (url) {
      if (!token) {
        return fail("the admin API needs its token: set ADMIN_TOKEN (or give --admin-token)");
      }
      return print(
        out,
        options.json,
        command,
        await sendAdmin(requestFor(command), url, token, fetchImpl),
      );
    }
    const store = await openKeyStore({
      dataDir: options.dataDir ?? (io.env.DATA_DIR || DEFAULT_DATA_DIR),
      databaseUrl,
    });
    try {
      return print(out, options.json, command, await runLocal(store, command));
    } finally {
      await store.close();
    }
  } catch (error) {
    out.stderr.write(`${COMMAND}: ${(error as Error)?.message ?? String(error)}\n`);
    return EXIT_FAILURE;
  }
}
