/**
 * The command line, driven by the registry: every example prints REST's body in-process
 * and with --url; every contract bad value exits 2 printing REST's 422 problems; --help
 * is generated for every operation; and the real bin runs.
 */
import { spawnSync } from "node:child_process";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runCli } from "../src/cli/cli.js";
import { operationHelp } from "../src/cli/help.js";
import type { AnyOperation } from "../src/kit/define.js";
import { describeParam } from "../src/kit/params.js";
import { badValuesFor } from "./bad-values.js";
import { AUTH, allOperations, queryOf, TEST_KEY, testApp, urlOf } from "./helpers.js";
import { ROOT } from "./process/helpers.js";

const operations = await allOperations();

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function cli(argv: string[], env: Record<string, string> = {}): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runCli(argv, operations, {
    stdout: { write: (text: string) => (stdout += text) },
    stderr: { write: (text: string) => (stderr += text) },
    env,
  });
  return { code, stdout, stderr };
}

/** An input as flags: lists as repeated flags, every value as `--name=value`. */
function flagsOf(input: Record<string, unknown>): string[] {
  return Object.entries(input).flatMap(([name, value]) =>
    (Array.isArray(value) ? value : [value]).map((item) => `--${name}=${String(item)}`),
  );
}

const command = (operation: AnyOperation) => [operation.area, operation.name];

let app: FastifyInstance;
let origin: string;
beforeAll(async () => {
  app = await testApp();
  await app.listen({ host: "127.0.0.1", port: 0 });
  origin = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
});
afterAll(() => app?.close());

const examples = operations.flatMap((operation) =>
  operation.examples.map(
    (example) =>
      [`${operation.area}/${operation.name}: ${example.title}`, operation, example] as const,
  ),
);

describe("every example prints REST's body", () => {
  it.each(examples)("%s", async (_id, operation, example) => {
    const rest = await app.inject({ url: urlOf(operation, queryOf(example.input)), headers: AUTH });
    const argv = [...command(operation), ...flagsOf(example.input), "--json"];
    const local = await cli(argv);
    expect(local, local.stderr).toMatchObject({ code: 0, stdout: `${rest.body}\n` });
    const remote = await cli([...argv, "--url", origin, "--api-key", TEST_KEY]);
    expect(remote, remote.stderr).toMatchObject({ code: 0, stdout: `${rest.body}\n` });
  });
});

describe.each(
  operations.map((operation) => [`${operation.area}/${operation.name}`, operation] as const),
)("%s", (_id, operation) => {
  const base = (operation.examples[0]?.input ?? {}) as Record<string, unknown>;
  const cases = Object.entries(operation.input.shape).flatMap(([name, schema]) => {
    const param = describeParam(schema);
    const example = base[name] ?? operation.examples.find((e) => name in e.input)?.input[name];
    const valid = example === undefined ? ["1"] : [example].flat().map(String);
    // Raw spellings are percent-encoding faults of a query string; argv has no such thing.
    const bad = badValuesFor(param, valid)
      .filter((b) => !b.raw)
      .map((b) => [name, b.why, b.values] as const);
    if (param.required) bad.push([name, "missing", []]);
    return bad;
  });

  it.each(cases)("bad %s (%s) exits 2 with REST's problems", async (name, _why, values) => {
    const rest = { ...base };
    delete rest[name];
    const query = [
      queryOf(rest),
      ...values.map((v) => `${encodeURIComponent(name)}=${encodeURIComponent(v)}`),
    ]
      .filter(Boolean)
      .join("&");
    const answer = await app.inject({ url: urlOf(operation, query), headers: AUTH });
    expect(answer.statusCode).toBe(422);
    const argv = [...command(operation), ...flagsOf(rest), ...values.map((v) => `--${name}=${v}`)];
    const json = await cli([...argv, "--json"]);
    expect(json).toMatchObject({ code: 2, stdout: `${answer.body}\n` });
    const readable = await cli(argv);
    expect(readable.code).toBe(2);
    for (const problem of answer.json().detail as { msg: string; type: string }[]) {
      expect(readable.stderr).toContain(`${problem.msg} [${problem.type}]`);
    }
  });

  it("--help is generated from the module", async () => {
    const help = await cli([...command(operation), "--help"]);
    expect(help.code).toBe(0);
    expect(help.stdout).toBe(operationHelp(operation));
    expect(help.stdout).toContain(operation.summary);
    expect(help.stdout).toContain(operation.description.trim());
    for (const [name, schema] of Object.entries(operation.input.shape)) {
      expect(help.stdout).toContain(`--${name} `);
      const description = schema.description;
      if (description) expect(help.stdout).toContain(description);
    }
    for (const example of operation.examples) expect(help.stdout).toContain(example.title);
  });
});

describe("the command line", () => {
  it("list: every operation with its summary, by area", async () => {
    const list = await cli(["list"]);
    expect(list.code).toBe(0);
    for (const operation of operations) {
      expect(list.stdout).toMatch(new RegExp(`^${operation.area}$`, "m"));
      expect(list.stdout).toContain(`${operation.name}`);
      expect(list.stdout).toContain(operation.summary);
    }
  });

  it.each([
    ["repeated flags", ["--numbers", "1", "--numbers", "2"], "numbers=1&numbers=2"],
    ["comma-separated", ["--numbers", "1,2"], "numbers=1,2"],
    ["both", ["--numbers=1,2", "--numbers", "3"], "numbers=1,2&numbers=3"],
    ["negative values", ["--numbers", "-1.5", "--numbers", "-2"], "numbers=-1.5&numbers=-2"],
  ])("lists as the query string takes them: %s", async (_why, flags, query) => {
    const rest = await app.inject({ url: `/v1/math/sum?${query}`, headers: AUTH });
    expect((await cli(["math", "sum", ...flags, "--json"])).stdout).toBe(`${rest.body}\n`);
  });

  it("readable output by default: one field per line", async () => {
    const run = await cli(["math", "sum", "--numbers", "0.1,0.2"]);
    expect(run).toEqual({
      code: 0,
      stdout: "result:  0.3\ndecimal: 0.3\ncount:   2\n",
      stderr: "",
    });
  });

  it("takes the name in segments or with its slash", async () => {
    const bySegments = await cli(["crypto", "checksum", "md5", "--text", "abc", "--json"]);
    const bySlash = await cli(["crypto", "checksum/md5", "--text", "abc", "--json"]);
    expect(bySegments.code).toBe(0);
    expect(bySlash).toEqual(bySegments);
  });

  it("UCS_URL and UCS_API_KEY, or --key, send the call to a running service", async () => {
    const env = { UCS_URL: origin, UCS_API_KEY: TEST_KEY };
    expect(await cli(["math", "sum", "--numbers", "1,2", "--json"], env)).toMatchObject({
      code: 0,
      stdout: '{"result":3,"decimal":"3","count":2}\n',
    });
    const byFlag = await cli(["math", "sum", "--numbers", "1", "--url", origin, "--key", TEST_KEY]);
    expect(byFlag.code).toBe(0);
    const noKey = await cli(["math", "sum", "--numbers", "1", "--url", origin]);
    expect(noKey.code).toBe(1);
    expect(noKey.stderr).toMatch(/401/);
  });

  it("an operation's own `key` parameter is the parameter; --api-key is the API key", async () => {
    const argv = ["hash", "hmac-md5", "--text", "what do ya want for nothing?", "--key", "Jefe"];
    const local = await cli([...argv, "--json"]);
    const remote = await cli([...argv, "--json", "--url", origin, "--api-key", TEST_KEY]);
    expect(local.stdout).toContain("750c783e6ab0b503eaa86e310a5db738");
    expect(remote).toEqual(local);
  });

  it.each([
    ["no operation", [], 2, /Usage/],
    ["an unknown operation", ["math", "nope"], 1, /no operation 'math\/nope'/],
    ["an option without its value", ["math", "sum", "--numbers"], 2, /needs a value/],
    ["an unknown option", ["math", "sum", "--numbers", "1", "--nope", "x"], 2, /extra_forbidden/],
    ["a stray word", ["math", "sum", "--numbers", "1", "2"], 2, /'2' is not an option/],
    ["an unknown question id", ["fun", "would-you-rather", "--id", "food-999"], 1, /food-999/],
  ])("%s exits %i", async (_why, argv, code, message) => {
    const run = await cli(argv);
    expect(run.code).toBe(code);
    expect(run.stderr).toMatch(message);
  });
});

describe("what input can put on a terminal", () => {
  const ESC = "\u001b[31mX";
  const CSI = "\u009b2J";
  /** No control character reaches the terminal but newline and tab. */
  // biome-ignore lint/suspicious/noControlCharactersInRegex: looking for them is the point.
  const raw = /[\u0000-\u0008\u000b-\u001f\u007f-\u009f]/;

  it.each([
    ["in-process", {}],
    ["from a running service", { UCS_API_KEY: TEST_KEY }],
  ])("escape sequences in an error are printed escaped (%s)", async (where, env) => {
    const argv = ["ip", "supernet", "--networks", `${ESC}${CSI}`, `--${ESC}`, "1"];
    const run = await cli(where === "in-process" ? argv : [...argv, "--url", origin], env);
    expect(run.code).toBe(2);
    expect(run.stderr).not.toMatch(raw);
    expect(run.stderr).toContain("'\\x1b[31mX\\u009b2J' is not a valid IPv4 or IPv6 network");
    expect(run.stderr).toContain("  \\x1b[31mX: Extra inputs are not permitted");
    // --json: the same JSON, its C1 characters in JSON's escapes as well.
    const json = await cli(
      [...argv, "--json", ...(where === "in-process" ? [] : ["--url", origin])],
      env,
    );
    expect(json.stdout).not.toMatch(raw);
    const rest = await app.inject({
      url: `/v1/ip/supernet?networks=${encodeURIComponent(ESC + CSI)}&${encodeURIComponent(ESC)}=1`,
      headers: AUTH,
    });
    expect(JSON.parse(json.stdout)).toEqual(rest.json());
  });

  it("an unknown question id and an unknown operation are echoed escaped", async () => {
    const question = await cli(["fun", "would-you-rather", "--id", `food-${CSI}`]);
    expect(question.stderr).not.toMatch(raw);
    const unknown = await cli([`ma${ESC}th`, "sum"]);
    expect(unknown.stderr).toBe(
      "ucs: no operation 'ma\\x1b[31mXth/sum'; 'ucs list' shows them all\n",
    );
  });

  it.each([
    ["--url", (url: string) => ({ argv: ["--url", url], env: {} })],
    ["UCS_URL", (url: string) => ({ argv: [], env: { UCS_URL: url } })],
  ])("credentials in %s are never printed", async (_how, given) => {
    for (const url of [
      "http://user:secret@127.0.0.1:9",
      "http://us er:secret@127.0.0.1:9",
      "http://secret@127.0.0.1:9",
    ]) {
      const { argv, env } = given(url);
      const run = await cli(["math", "sum", "--numbers", "1", ...argv], env);
      expect(run.code).toBe(1);
      expect(run.stderr).not.toContain("secret");
      expect(run.stderr).toMatch(/:\/\/(us ?er:)?\*\*\*@127\.0\.0\.1:9/);
    }
  });
});

describe("the bin", () => {
  const bin = (args: string[]) =>
    spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", ...args], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 30_000,
    });

  it.each([
    [
      ["math", "sum", "--numbers", "0.1,0.2", "--json"],
      0,
      '{"result":0.3,"decimal":"0.3","count":2}\n',
    ],
    [["math", "sum", "--numbers", "x", "--json"], 2, /"type":"float_parsing"/],
    [["math", "nope"], 1, ""],
  ] as const)("%j exits %i", (args, status, stdout) => {
    const run = bin([...args]);
    expect(run.status, run.stderr).toBe(status);
    if (typeof stdout === "string") expect(run.stdout).toBe(stdout);
    else expect(run.stdout).toMatch(stdout);
  });
});
