/**
 * `ucs keys` on the store of a running service, as an operator runs it: the real bin, a
 * process per command, against the service's DATA_DIR. The service takes each change up
 * within API.md §7's 5 s, and the usage it records shows in `ucs keys usage`.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
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
  const run = spawnSync(process.execPath, ["--import", "tsx", "src/cli/main.ts", "keys", ...argv], {
    cwd: ROOT,
    env: { PATH: process.env.PATH ?? "", DATA_DIR: dataDir },
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
