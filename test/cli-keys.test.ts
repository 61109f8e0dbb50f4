/**
 * `ucs keys …`: every subcommand on a temporary SQLite store (local mode), its --json
 * shapes and its refusals (exit 2, the flag named); and the remote mode's HTTP client
 * against recorded exchanges of API.md §7's admin API (method, path, headers, body, and the
 * answer printed). An end-to-end run against the real admin API belongs here once it lands.
 */
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { hashSecret, type KeyStore, openKeyStore } from "../src/access/keys/store.js";
import { runCli } from "../src/cli/cli.js";
import { runKeys } from "../src/cli/keys.js";

interface Run {
  code: number;
  stdout: string;
  stderr: string;
}

async function keys(
  argv: string[],
  env: Record<string, string> = {},
  fetchImpl?: typeof fetch,
): Promise<Run> {
  let stdout = "";
  let stderr = "";
  const code = await runKeys(
    argv,
    {
      stdout: { write: (text: string) => (stdout += text) },
      stderr: { write: (text: string) => (stderr += text) },
      env,
    },
    fetchImpl,
  );
  return { code, stdout, stderr };
}

const SECRET = /^ucs_[0-9A-Za-z]{40}$/;
const KEY_FIELDS = [
  "id",
  "prefix",
  "name",
  "scopes",
  "plan",
  "expiresAt",
  "disabled",
  "meta",
  "createdAt",
  "lastUsedAt",
];

describe("local mode, on a temporary SQLite DATA_DIR", () => {
  let dataDir: string;
  let env: Record<string, string>;
  const local = (argv: string[]) => keys(argv, env);
  const json = async (argv: string[]) => {
    const run = await local([...argv, "--json"]);
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
    return JSON.parse(run.stdout);
  };
  /** The store, opened beside the command, to see what it did. */
  const withStore = async <T>(work: (store: KeyStore) => Promise<T>) => {
    const store = await openKeyStore({ dataDir });
    try {
      return await work(store);
    } finally {
      await store.close();
    }
  };

  beforeAll(() => {
    dataDir = mkdtempSync(join(tmpdir(), "ucs-cli-keys-"));
    env = { DATA_DIR: dataDir };
  });
  afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

  it("create prints the key and its secret once; --json is the API's object with `key`", async () => {
    const run = await local([
      "create",
      "--name",
      "ci runner",
      "--scopes",
      "math,hash/hmac-md5",
      "--plan",
      "100/60",
      "--expires",
      "2027-01-31T02:00:00+02:00",
      "--meta",
      '{"team":"ci"}',
    ]);
    expect(run, run.stderr).toMatchObject({ code: 0, stderr: "" });
    const secret = /^Key \(shown once\): (\S+)$/m.exec(run.stdout)?.[1] as string;
    expect(secret).toMatch(SECRET);
    expect(run.stdout.split(secret)).toHaveLength(2);
    expect(run.stdout).toMatch(/^name: +ci runner$/m);
    expect(run.stdout).toMatch(/^plan: +100 units per 60 s$/m);
    expect(run.stdout).toMatch(/^expiresAt: +2027-01-31T00:00:00.000Z$/m);
    const id = /^id: +(key_\w+)$/m.exec(run.stdout)?.[1] as string;
    const record = await withStore((store) => store.get(id));
    expect(record).toMatchObject({
      name: "ci runner",
      scopes: ["math", "hash/hmac-md5"],
      plan: { limit: 100, windowSeconds: 60 },
      meta: { team: "ci" },
      hash: hashSecret(secret),
    });

    const body = await json(["create", "--name", "plain"]);
    expect(Object.keys(body)).toEqual([...KEY_FIELDS, "key"]);
    expect(body).toMatchObject({
      name: "plain",
      scopes: ["*"],
      plan: null,
      expiresAt: null,
      disabled: false,
      meta: {},
      lastUsedAt: null,
    });
    expect(body.key).toMatch(SECRET);
    expect(body.prefix).toBe(body.key.slice(0, 12));
  });

  it("list pages with --limit and --cursor, shows no secret, and refuses a bad cursor", async () => {
    const first = await json(["list", "--limit", "1"]);
    expect(first.keys).toHaveLength(1);
    expect(Object.keys(first.keys[0])).toEqual(KEY_FIELDS);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await json(["list", "--limit", "1", "--cursor", first.nextCursor]);
    expect(second.keys[0].id).not.toBe(first.keys[0].id);
    const all = await json(["list"]);
    expect(all.nextCursor).toBeNull();
    expect(all.keys.length).toBeGreaterThanOrEqual(2);

    const readable = await local(["list", "--limit", "1"]);
    expect(readable.code).toBe(0);
    expect(readable.stdout).toMatch(
      /^ID +PREFIX +NAME +SCOPES +PLAN +EXPIRES +DISABLED +LAST USED$/m,
    );
    expect(readable.stdout).toContain(first.keys[0].id);
    expect(readable.stdout).toContain(`More: ucs keys list --cursor ${first.nextCursor}`);
    expect(readable.stdout).not.toMatch(/ucs_[0-9A-Za-z]{40}/);

    const bad = await local(["list", "--cursor", "nope"]);
    expect(bad).toMatchObject({ code: 2, stdout: "" });
    expect(bad.stderr).toContain("--cursor: Value error, invalid cursor");
    expect(await local(["list", "--limit", "101"])).toMatchObject({ code: 2 });
  });

  it("show, update (every field, none and never), revoke, and unknown ids", async () => {
    const { id } = await json(["create", "--name", "to change", "--plan", "5/10"]);
    expect(await json(["show", id])).toMatchObject({ id, name: "to change" });
    expect((await json(["show", id])).key).toBeUndefined();

    const changed = await json([
      "update",
      id,
      "--name",
      "changed",
      "--scopes",
      "misc",
      "--expires",
      "2030-01-01T00:00:00Z",
      "--meta",
      '{"a":1}',
      "--disable",
    ]);
    expect(changed).toMatchObject({
      id,
      name: "changed",
      scopes: ["misc"],
      plan: { limit: 5, windowSeconds: 10 },
      expiresAt: "2030-01-01T00:00:00.000Z",
      disabled: true,
      meta: { a: 1 },
    });
    expect(Object.keys(changed)).toEqual(KEY_FIELDS);
    expect(
      await json(["update", id, "--plan", "none", "--expires", "never", "--enable"]),
    ).toMatchObject({ plan: null, expiresAt: null, disabled: false, name: "changed" });

    const revoked = await local(["revoke", id]);
    expect(revoked).toEqual({ code: 0, stdout: `Revoked ${id}.\n`, stderr: "" });
    expect(await withStore((store) => store.get(id))).toBeUndefined();
    for (const argv of [
      ["show", id],
      ["update", id, "--name", "x"],
      ["revoke", id],
      ["roll", id],
      ["usage", id],
    ]) {
      const run = await local(argv);
      expect(run, argv.join(" ")).toEqual({
        code: 1,
        stdout: "",
        stderr: `Error (404): No key has the id '${id}'\n`,
      });
    }
    // --json: the API's 404 body on stdout; revoke's 204 prints nothing.
    expect(await local(["show", id, "--json"])).toEqual({
      code: 1,
      stdout: `{"detail":"No key has the id '${id}'"}\n`,
      stderr: "",
    });
    const other = await json(["create", "--name", "gone"]);
    expect(await local(["revoke", other.id, "--json"])).toEqual({
      code: 0,
      stdout: "",
      stderr: "",
    });
  });

  it("roll prints a new secret once; the old one stays for the overlap", async () => {
    const created = await json(["create", "--name", "rolled"]);
    const run = await local(["roll", created.id, "--overlap", "60"]);
    expect(run.code, run.stderr).toBe(0);
    const secret = /^Key \(shown once\): (\S+)$/m.exec(run.stdout)?.[1] as string;
    expect(secret).toMatch(SECRET);
    expect(secret).not.toBe(created.key);
    const record = await withStore((store) => store.get(created.id));
    expect(record).toMatchObject({
      hash: hashSecret(secret),
      previousHash: hashSecret(created.key),
    });
    expect(Date.parse(record?.previousValidUntil as string) - Date.now()).toBeGreaterThan(50_000);

    const again = await json(["roll", created.id]);
    expect(Object.keys(again)).toEqual([...KEY_FIELDS, "key"]);
    expect(await withStore((store) => store.get(created.id))).toMatchObject({
      hash: hashSecret(again.key),
      previousHash: null,
    });
  });

  it("usage prints calls and units per day and operation, in a range", async () => {
    const { id } = await json(["create", "--name", "busy"]);
    await withStore((store) =>
      store.addUsage(
        [
          { keyId: id, date: "2026-01-01", operation: "math/sum", calls: 2, units: 3 },
          { keyId: id, date: "2026-01-02", operation: "hash/md5", calls: 1, units: 1 },
          { keyId: id, date: "2026-02-01", operation: "math/sum", calls: 9, units: 9 },
        ],
        new Map(),
      ),
    );
    const body = await json(["usage", id, "--from", "2026-01-01", "--to", "2026-01-31"]);
    expect(body).toEqual({
      id,
      usage: [
        { date: "2026-01-01", operation: "math/sum", calls: 2, units: 3 },
        { date: "2026-01-02", operation: "hash/md5", calls: 1, units: 1 },
      ],
    });
    const run = await local(["usage", id, "--from", "2026-01-01", "--to", "2026-01-31"]);
    expect(run.stdout).toBe(
      [
        "DATE        OPERATION  CALLS  UNITS",
        "2026-01-01  math/sum   2      3",
        "2026-01-02  hash/md5   1      1",
        "total                  3      4",
        "",
      ].join("\n"),
    );
    // The default range is the last 30 days: none of these.
    expect(await local(["usage", id])).toMatchObject({
      code: 0,
      stdout: `No usage for ${id} in these days.\n`,
    });
    const backwards = await local(["usage", id, "--from", "2026-02-01", "--to", "2026-01-01"]);
    expect(backwards).toMatchObject({ code: 2, stdout: "" });
    expect(backwards.stderr).toContain(
      "--from: Value error, from (2026-02-01) is after to (2026-01-01)",
    );
  });

  it.each([
    [["create"], "--name: Field required"],
    [["create", "--name", ""], "--name: String should have at least 1 character"],
    [["create", "--name", "x".repeat(101)], "--name: String should have at most 100 characters"],
    [
      ["create", "--name", "a", "--plan", "100"],
      "--plan: Value error, expected LIMIT/WINDOWSECONDS",
    ],
    [
      ["create", "--name", "a", "--plan", "none"],
      "--plan: Value error, expected LIMIT/WINDOWSECONDS",
    ],
    [
      ["create", "--name", "a", "--plan", "0/60"],
      "--plan (limit): Input should be greater than or equal to 1",
    ],
    [
      ["create", "--name", "a", "--plan", "1/86401"],
      "--plan (windowSeconds): Input should be less than or equal to 86400",
    ],
    [["create", "--name", "a", "--plan", "1/x"], "--plan (windowSeconds): "],
    [
      ["create", "--name", "a", "--scopes", "Math"],
      "--scopes (0): Value error, a scope is '*', an area",
    ],
    [
      ["create", "--name", "a", "--expires", "2027-01-31"],
      "--expires: Value error, expected an RFC 3339 time",
    ],
    [
      ["create", "--name", "a", "--expires", "2020-01-01T00:00:00Z"],
      "--expires: Input should be in the future",
    ],
    [["create", "--name", "a", "--scopes", ""], "--scopes: List should have at least 1 item"],
    [["create", "--name", "a", "--meta", "{"], "--meta: Value error, expected a JSON object"],
    [["create", "--name", "a", "--meta", "[1]"], "--meta: "],
    [
      ["create", "--name", "a", "--meta", JSON.stringify({ a: "x".repeat(1020) })],
      "--meta: Value error, meta is 1028 bytes of JSON; at most 1024 are allowed",
    ],
    [
      ["update", "key_x", "--disable", "--enable"],
      "--disable/--enable: Value error, give --disable or --enable, not both",
    ],
    [
      ["roll", "key_x", "--overlap", "604801"],
      "--overlap: Input should be less than or equal to 604800",
    ],
    [["roll", "key_x", "--overlap", "-1"], "--overlap: Input should be greater than or equal to 0"],
    [["list", "--limit", "0"], "--limit: Input should be greater than or equal to 1"],
    [
      ["list", "--limit", "0x10"],
      "--limit: Input should be a valid integer, unable to parse string as an integer",
    ],
    [
      ["usage", "key_x", "--from", "2026-02-30"],
      "--from: Input should be a valid date in the format YYYY-MM-DD",
    ],
    [
      ["usage", "key_x", "--to", "yesterday"],
      "--to: Input should be a valid date in the format YYYY-MM-DD",
    ],
  ])("%j: exit 2, the flag named", async (argv, message) => {
    const run = await local(argv);
    expect(run.code, run.stderr).toBe(2);
    expect(run.stdout).toBe("");
    expect(run.stderr).toMatch(/^Invalid input:\n/);
    expect(run.stderr).toContain(message);
    // --json: the admin API's 422 body, `loc` from "body" or "query".
    const body = JSON.parse((await local([...argv, "--json"])).stdout);
    expect(body.detail[0].loc[0]).toMatch(/^(body|query)$/);
  });

  it.each([
    [[], "Usage: ucs keys <subcommand>"],
    [["bogus"], "ucs keys: no subcommand 'bogus'"],
    [["create", "--nme", "x"], "ucs keys: unknown option --nme for 'ucs keys create'"],
    [["create", "--name"], "ucs keys: --name needs a value"],
    [["create", "--name", "a", "--name", "b"], "ucs keys: --name is given twice"],
    [["create", "extra", "--name", "a"], "ucs keys: 'extra' is not an option"],
    [["show"], "ucs keys: 'ucs keys show' needs a key's ID"],
    [["show", "a", "b"], "ucs keys: 'b' is not an option"],
    [["revoke", "key_x", "--overlap", "5"], "unknown option --overlap for 'ucs keys revoke'"],
    [["update", "key_x"], "ucs keys: nothing to change: give --name"],
    [["list", "--url", "http://127.0.0.1:1", "--data-dir", "/tmp"], "give one"],
    [
      ["list", "--admin-token", "t".repeat(32)],
      "--admin-token is for a running service's admin API",
    ],
  ])("%j: a command line it cannot read, exit 2", async (argv, message) => {
    const run = await local(argv);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toContain(message);
  });

  it("--help, and the store from --data-dir over DATA_DIR", async () => {
    const help = await local(["--help"]);
    expect(help).toMatchObject({ code: 0, stderr: "" });
    for (const action of ["create", "list", "show", "update", "revoke", "roll", "usage"]) {
      expect(help.stdout).toContain(`ucs keys ${action} `);
    }
    const roll = await local(["roll", "--help"]);
    expect(roll.stdout).toMatch(/^ucs keys roll: gives a key a new secret/);
    expect(roll.stdout).toContain("\n\nUsage: ucs keys roll ID [--overlap SECONDS] [--json]");
    expect(roll.stdout).toContain("\n\nWhere: by default the local store");

    const other = mkdtempSync(join(tmpdir(), "ucs-cli-keys-other-"));
    try {
      // --data-dir is the local store even with UCS_URL set (no request is made).
      const run = await keys(
        ["create", "--name", "elsewhere", "--data-dir", other, "--json"],
        { ...env, UCS_URL: "http://127.0.0.1:1" },
        (() => {
          throw new Error("no request expected");
        }) as unknown as typeof fetch,
      );
      expect(run, run.stderr).toMatchObject({ code: 0 });
      const there = await keys(["list", "--json"], { DATA_DIR: other });
      expect(JSON.parse(there.stdout).keys.map((key: { name: string }) => key.name)).toEqual([
        "elsewhere",
      ]);
    } finally {
      rmSync(other, { recursive: true, force: true });
    }
  });

  it("a store it cannot open: exit 1, saying why, no password", async () => {
    const mysql = await keys(["list"], { DATABASE_URL: "mysql://db/x" });
    expect(mysql).toMatchObject({ code: 1, stdout: "" });
    expect(mysql.stderr).toContain("DATABASE_URL must be a postgres:// URL");
    const refused = await keys(["list", "--database-url", "postgres://u:s3cret-pw@127.0.0.1:1/x"]);
    expect(refused).toMatchObject({ code: 1, stdout: "" });
    expect(refused.stderr).toContain("cannot reach or migrate the PostgreSQL key store");
    expect(refused.stderr).not.toContain("s3cret-pw");
  });

  it("is dispatched from `ucs`, whose usage names it", async () => {
    let stdout = "";
    const io = { stdout: { write: (t: string) => (stdout += t) }, stderr: { write: () => 0 }, env };
    expect(await runCli(["keys", "list", "--json"], [], io)).toBe(0);
    expect(JSON.parse(stdout)).toHaveProperty("nextCursor");
    stdout = "";
    expect(await runCli(["--help"], [], io)).toBe(0);
    expect(stdout).toContain("ucs keys create|list|show|update|revoke|roll|usage");
  });
});

/** A request as the fake fetch saw it. */
interface Seen {
  method: string;
  url: string;
  headers: Record<string, string>;
  body?: unknown;
  timed: boolean;
}

/** A fetch that records what it is asked and answers from a recording. */
function recorder(status: number, body?: unknown, raw?: string) {
  const seen: Seen[] = [];
  const fetchImpl = (async (url: string, init: RequestInit) => {
    seen.push({
      method: init.method ?? "GET",
      url,
      headers: init.headers as Record<string, string>,
      ...(init.body === undefined ? {} : { body: JSON.parse(init.body as string) }),
      timed: init.signal instanceof AbortSignal,
    });
    const text = raw ?? (body === undefined ? "" : JSON.stringify(body));
    return new Response(status === 204 ? null : text, { status });
  }) as unknown as typeof fetch;
  return { seen, fetchImpl };
}

const TOKEN = "admin-token-0123456789abcdefghijklmnop";
const URL_ = "http://127.0.0.1:9/";
const REMOTE = { UCS_URL: URL_, ADMIN_TOKEN: TOKEN };
const READ = { accept: "application/json", authorization: `Bearer ${TOKEN}` };
const WRITE = { ...READ, "content-type": "application/json" };
const KEY = {
  id: "key_0123456789abcdef",
  prefix: "ucs_AbCdEfGh",
  name: "ci",
  scopes: ["math"],
  plan: { limit: 100, windowSeconds: 60 },
  expiresAt: null,
  disabled: false,
  meta: {},
  createdAt: "2026-11-27T10:00:00.000Z",
  lastUsedAt: null,
};
const NEW_SECRET = `ucs_AbCdEfGh${"x".repeat(32)}`;

describe("remote mode: the admin API's exchanges (API.md §7)", () => {
  // Each: the command, the request the contract says it makes, the recorded answer.
  const exchanges: [string, string[], Omit<Seen, "timed">, number, unknown][] = [
    [
      "create",
      [
        "create",
        "--name",
        "ci",
        "--scopes",
        "math",
        "--plan",
        "100/60",
        "--expires",
        "2027-01-31T00:00:00Z",
        "--meta",
        '{"team":"ci"}',
      ],
      {
        method: "POST",
        url: "http://127.0.0.1:9/admin/v1/keys",
        headers: WRITE,
        body: {
          name: "ci",
          scopes: ["math"],
          plan: { limit: 100, windowSeconds: 60 },
          expiresAt: "2027-01-31T00:00:00Z",
          meta: { team: "ci" },
        },
      },
      201,
      { ...KEY, key: NEW_SECRET },
    ],
    [
      "list",
      ["list", "--limit", "2", "--cursor", "abc="],
      {
        method: "GET",
        url: "http://127.0.0.1:9/admin/v1/keys?limit=2&cursor=abc%3D",
        headers: READ,
      },
      200,
      { keys: [KEY], nextCursor: null },
    ],
    [
      "list, the API's default page",
      ["list"],
      { method: "GET", url: "http://127.0.0.1:9/admin/v1/keys", headers: READ },
      200,
      { keys: [], nextCursor: null },
    ],
    [
      "show",
      ["show", "key_0123456789abcdef"],
      {
        method: "GET",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef",
        headers: READ,
      },
      200,
      KEY,
    ],
    [
      "update",
      [
        "update",
        "key_0123456789abcdef",
        "--name",
        "n",
        "--plan",
        "none",
        "--expires",
        "never",
        "--enable",
        "--scopes",
        "*,math",
      ],
      {
        method: "PATCH",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef",
        headers: WRITE,
        body: { name: "n", scopes: ["*", "math"], plan: null, expiresAt: null, disabled: false },
      },
      200,
      { ...KEY, name: "n", plan: null },
    ],
    [
      "update --disable",
      ["update", "key_0123456789abcdef", "--disable"],
      {
        method: "PATCH",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef",
        headers: WRITE,
        body: { disabled: true },
      },
      200,
      { ...KEY, disabled: true },
    ],
    [
      "revoke",
      ["revoke", "key_0123456789abcdef"],
      {
        method: "DELETE",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef",
        headers: READ,
      },
      204,
      undefined,
    ],
    [
      "roll",
      ["roll", "key_0123456789abcdef", "--overlap", "3600"],
      {
        method: "POST",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef/roll",
        headers: WRITE,
        body: { overlapSeconds: 3600 },
      },
      201,
      { ...KEY, key: NEW_SECRET },
    ],
    [
      "roll, no overlap",
      ["roll", "key_0123456789abcdef"],
      {
        method: "POST",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef/roll",
        headers: WRITE,
        body: { overlapSeconds: 0 },
      },
      201,
      { ...KEY, key: NEW_SECRET },
    ],
    [
      "usage",
      ["usage", "key_0123456789abcdef", "--from", "2026-11-01", "--to", "2026-11-27"],
      {
        method: "GET",
        url: "http://127.0.0.1:9/admin/v1/keys/key_0123456789abcdef/usage?from=2026-11-01&to=2026-11-27",
        headers: READ,
      },
      200,
      { id: KEY.id, usage: [{ date: "2026-11-02", operation: "math/sum", calls: 4, units: 4 }] },
    ],
    [
      "an id written as a path",
      ["show", "../x?y"],
      { method: "GET", url: "http://127.0.0.1:9/admin/v1/keys/..%2Fx%3Fy", headers: READ },
      404,
      { detail: "No key has the id '../x?y'" },
    ],
  ];

  it.each(exchanges)("%s", async (_title, argv, request, status, answer) => {
    const { seen, fetchImpl } = recorder(status, answer);
    const run = await keys([...argv, "--json"], REMOTE, fetchImpl);
    expect(seen).toEqual([{ ...request, timed: true }]);
    expect(run.code).toBe(status < 300 ? 0 : 1);
    expect(run.stdout).toBe(answer === undefined ? "" : `${JSON.stringify(answer)}\n`);
    expect(run.stdout + run.stderr).not.toContain(TOKEN);
  });

  it("prints answers as the local mode does: the secret once, revoke in words", async () => {
    const created = await keys(
      ["create", "--name", "ci"],
      REMOTE,
      recorder(201, { ...KEY, key: NEW_SECRET }).fetchImpl,
    );
    expect(created.code).toBe(0);
    expect(created.stdout).toMatch(/^id: +key_0123456789abcdef$/m);
    expect(created.stdout).toContain(`\nKey (shown once): ${NEW_SECRET}\n`);
    const shown = await keys(["show", KEY.id], REMOTE, recorder(200, KEY).fetchImpl);
    expect(shown.stdout).not.toContain("shown once");
    expect(shown.stdout).toMatch(/^plan: +100 units per 60 s$/m);
    const revoked = await keys(["revoke", KEY.id], REMOTE, recorder(204).fetchImpl);
    expect(revoked).toEqual({ code: 0, stdout: `Revoked ${KEY.id}.\n`, stderr: "" });
  });

  it("--url and --admin-token flags; a trailing slash; no request without a token", async () => {
    const { seen, fetchImpl } = recorder(200, KEY);
    await keys(
      [
        "show",
        KEY.id,
        "--url",
        "http://127.0.0.1:8/base/",
        "--admin-token",
        "flag-token-0123456789abcdefghijklmn",
      ],
      {},
      fetchImpl,
    );
    expect(seen[0]).toMatchObject({
      url: `http://127.0.0.1:8/base/admin/v1/keys/${KEY.id}`,
      headers: { authorization: "Bearer flag-token-0123456789abcdefghijklmn" },
    });
    const none = recorder(200, KEY);
    const run = await keys(["show", KEY.id], { UCS_URL: URL_ }, none.fetchImpl);
    expect(none.seen).toEqual([]);
    expect(run).toMatchObject({ code: 2, stdout: "" });
    expect(run.stderr).toContain("the admin API needs its token: set ADMIN_TOKEN");
  });

  it.each([
    [
      401,
      { detail: "Missing or invalid admin token" },
      1,
      "Error (401): Missing or invalid admin token\n",
    ],
    [404, { detail: "Not Found" }, 1, "Error (404): Not Found\n"],
    [
      503,
      { detail: "The key store is unreachable" },
      1,
      "Error (503): The key store is unreachable\n",
    ],
    [
      422,
      {
        detail: [
          {
            loc: ["body", "plan", "limit"],
            msg: "Input should be greater than or equal to 1",
            type: "greater_than_equal",
          },
        ],
      },
      2,
      "Invalid input:\n  --plan (limit): Input should be greater than or equal to 1 [greater_than_equal]\n",
    ],
  ])("HTTP %i: the API's detail, exit %i", async (status, body, code, stderr) => {
    const run = await keys(["show", KEY.id], REMOTE, recorder(status, body).fetchImpl);
    expect(run).toEqual({ code, stdout: "", stderr });
    const json = await keys(["show", KEY.id, "--json"], REMOTE, recorder(status, body).fetchImpl);
    expect(json).toEqual({ code, stdout: `${JSON.stringify(body)}\n`, stderr: "" });
  });

  it("a page that is no JSON, a network fault: exit 1, saying what came", async () => {
    const proxy = await keys(
      ["list"],
      REMOTE,
      recorder(502, undefined, "<h1>Bad gateway</h1>").fetchImpl,
    );
    expect(proxy).toEqual({ code: 1, stdout: "", stderr: "Error (502): <h1>Bad gateway</h1>\n" });
    const page = await keys(
      ["show", KEY.id],
      REMOTE,
      recorder(200, undefined, "<h1>Hi</h1>").fetchImpl,
    );
    expect(page).toEqual({
      code: 1,
      stdout: "",
      stderr: "Error (200): not an answer of the admin API: <h1>Hi</h1>\n",
    });
    const down = (async () => {
      throw new TypeError("fetch failed");
    }) as unknown as typeof fetch;
    expect(await keys(["list"], REMOTE, down)).toEqual({
      code: 1,
      stdout: "",
      stderr: "ucs keys: fetch failed\n",
    });
  });

  it("never prints the admin token, nor a URL's credentials, nor control characters", async () => {
    const echo = recorder(401, { detail: `token ${TOKEN} refused\u001b[2J` });
    const run = await keys(
      ["show", KEY.id],
      { ...REMOTE, UCS_URL: "http://user:pw@127.0.0.1:9" },
      echo.fetchImpl,
    );
    expect(run.stderr).toBe("Error (401): token *** refused\\x1b[2J\n");
    const failing = (async (url: string) => {
      throw new TypeError(`cannot reach ${url} with ${TOKEN}`);
    }) as unknown as typeof fetch;
    const down = await keys(
      ["list"],
      { ...REMOTE, UCS_URL: "http://user:pw@127.0.0.1:9" },
      failing,
    );
    expect(down.stderr).toBe(
      "ucs keys: cannot reach http://user:***@127.0.0.1:9/admin/v1/keys with ***\n",
    );
  });

  it("checks arguments before sending anything", async () => {
    const { seen, fetchImpl } = recorder(201, KEY);
    const run = await keys(["create", "--name", "a", "--plan", "0/60"], REMOTE, fetchImpl);
    expect(seen).toEqual([]);
    expect(run.code).toBe(2);
  });
});
