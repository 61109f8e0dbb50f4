/**
 * `ucs keys` on the store of a running service, as an operator runs it: the real bin, a
 * process per command, against the service's DATA_DIR. The service takes each change up
 * within API.md §7's 5 s, and the usage it records shows in `ucs keys usage`. And the
 * remote mode end to end, against the service's admin API (once that API is merged).
 */
import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { ROOT, type Server, startServer, stopAll, waitFor } from "./helpers.js";

const dataDir = mkdtempSync(join(tmpdir(), "ucs-cli-keys-process-"));
afterAll(async () => {
  await stopAll();
  rmSync(dataDir, { recursive: true, force: true });
});

/** The bin, as `npm run cli` runs it; bounded, and it must exit on its own. */
function ucs(...argv: string[]) {
  return ucsWith({ DATA_DIR: dataDir }, ...argv);
}

function ucsWith(env: Record<string, string>, ...argv: string[]) {
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "keys", ...argv], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", ...env },
    encoding: "utf8",
    timeout: 30_000,
  });
  return { code: run.status, stdout: run.stdout, stderr: run.stderr };
}

function json(...argv: string[]) {
  const run = ucs(...argv, "--json");
  expect(run, run.stderr).toMatchObject({ code: 0 });
  return JSON.parse(run.stdout);
}

/** Waits (at most `ms`) for `key` to get `status` on a calculation; the time it took. */
async function until(server: Server, key: string, status: number, ms: number) {
  const start = Date.now();
  const seen = await waitFor(
    async () =>
      (await server.get("/v1/math/sum?numbers=1,2", { headers: { "x-api-key": key } })).status ===
      status,
    ms,
    100,
  );
  expect(seen, `expected ${status} within ${ms} ms\n${server.output()}`).toBe(true);
  return Date.now() - start;
}

it("create, disable, roll, revoke: the running service follows within 5 s", async () => {
  const server = await startServer({ DATA_DIR: dataDir, API_KEYS: "static-key-0123456789" });
  const created = json("create", "--name", "operator", "--scopes", "math");
  expect(await until(server, created.key, 200, 7000)).toBeLessThan(6000);

  json("update", created.id, "--disable");
  expect(await until(server, created.key, 401, 7000)).toBeLessThan(6000);
  json("update", created.id, "--enable");
  await until(server, created.key, 200, 7000);

  const rolled = json("roll", created.id);
  expect(await until(server, created.key, 401, 7000)).toBeLessThan(6000);
  await until(server, rolled.key, 200, 7000);

  // Usage is flushed within 10 s; the calls above were math/sum.
  let usage: { usage: { operation: string; calls: number }[] } = { usage: [] };
  const counted = await waitFor(
    () => {
      usage = json("usage", created.id);
      return usage.usage.some((row) => row.operation === "math/sum" && row.calls > 0);
    },
    15_000,
    1000,
  );
  expect(counted, JSON.stringify(usage)).toBe(true);

  const revoked = ucs("revoke", created.id);
  expect(revoked).toMatchObject({ code: 0, stdout: `Revoked ${created.id}.\n` });
  await until(server, rolled.key, 401, 7000);
  expect(ucs("show", created.id)).toMatchObject({ code: 1 });
  // Nothing the service logged holds a secret the command printed.
  expect(server.output()).not.toContain(created.key);
  expect(server.output()).not.toContain(rolled.key);
}, 90_000);

/** The admin API (src/admin/) is built on another branch: this test runs once it is merged. */
const ADMIN_API = existsSync(join(ROOT, "src/admin/routes.ts"));

it.skipIf(!ADMIN_API)(
  "--url: every subcommand on the service's admin API",
  async () => {
    const token = "admin-token-0123456789-0123456789-abcdef";
    const server = await startServer({
      DATA_DIR: mkdtempSync(join(tmpdir(), "ucs-cli-keys-remote-")),
      API_KEYS: "static-key-0123456789",
      ADMIN_TOKEN: token,
    });
    // No DATA_DIR: every command goes to the service.
    const env = { UCS_URL: `http://127.0.0.1:${server.port}`, ADMIN_TOKEN: token };
    const remote = (...argv: string[]) => {
      const run = ucsWith(env, ...argv, "--json");
      expect(run, run.stderr).toMatchObject({ code: 0 });
      return run.stdout === "" ? undefined : JSON.parse(run.stdout);
    };
    const created = remote("create", "--name", "remote", "--scopes", "math", "--plan", "10/60");
    expect(created).toMatchObject({ name: "remote", plan: { limit: 10, windowSeconds: 60 } });
    // The service that made the change uses it at once.
    await until(server, created.key, 200, 1000);
    expect(remote("list").keys.map((key: { id: string }) => key.id)).toContain(created.id);
    expect(remote("show", created.id)).toMatchObject({ id: created.id, scopes: ["math"] });
    expect(remote("update", created.id, "--disable")).toMatchObject({ disabled: true });
    await until(server, created.key, 401, 1000);
    remote("update", created.id, "--enable");
    const rolled = remote("roll", created.id, "--overlap", "60");
    await until(server, rolled.key, 200, 1000);
    await until(server, created.key, 200, 1000);
    expect(remote("usage", created.id)).toMatchObject({ id: created.id, usage: expect.any(Array) });
    expect(remote("revoke", created.id)).toBeUndefined();
    await until(server, rolled.key, 401, 1000);

    const gone = ucsWith(env, "show", created.id);
    expect(gone).toMatchObject({ code: 1, stdout: "" });
    expect(gone.stderr).toMatch(/^Error \(404\): /);
    const wrong = ucsWith({ ...env, ADMIN_TOKEN: `${token}x` }, "list");
    expect(wrong).toMatchObject({ code: 1, stdout: "" });
    expect(wrong.stderr).toMatch(/^Error \(401\): /);
    const invalid = ucsWith(env, "usage", created.id, "--from", "2026-02-01", "--to", "2026-01-01");
    expect(invalid.code).toBe(2);
    // Neither the token nor a secret reaches the service's log.
    for (const secret of [token, created.key, rolled.key]) {
      expect(server.output()).not.toContain(secret);
    }
  },
  90_000,
);
