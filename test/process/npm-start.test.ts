/**
 * The README's `npm start`, as a newcomer or a supervisor runs it: npm, its shell, node.
 * SIGTERM sent to npm's pid must stop the server (npm passes it to its child; the start
 * script `exec`s node, so that child is the server, not a shell that would die alone and
 * leave node serving). A second start with nothing changed does not compile again.
 */
import { spawnSync } from "node:child_process";
import { mkdtempSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, HOST, httpGet, Proc, ROOT, stopAll, waitFor } from "./helpers.js";

const alive = (pid: number) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

/** The pid in the server's JSON log lines: node's own, whatever ran it. */
function serverPid(proc: Proc): number | undefined {
  const line = proc.stdout.split("\n").find((l) => l.startsWith("{") && l.includes('"pid"'));
  return line ? (JSON.parse(line) as { pid: number }).pid : undefined;
}

const stamp = () => statSync(join(ROOT, "dist", ".build-stamp")).mtimeMs;

describe("npm start", () => {
  beforeAll(() => {
    // The first build of a clean clone: a compile, so bounded generously.
    const build = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 240_000,
    });
    if (build.status !== 0) throw new Error(`build failed\n${build.stdout}${build.stderr}`);
  }, 250_000);
  afterAll(stopAll);

  it("stops its node server on SIGTERM to npm's pid, and skips an up-to-date build", async () => {
    const built = stamp();
    const port = await freePort();
    const npm = new Proc("npm start", "npm", ["start"], {
      PATH: process.env.PATH ?? "",
      HOME: process.env.HOME ?? "",
      HOST,
      PORT: String(port),
      API_KEYS: "npm-start-test-key",
      DATA_DIR: mkdtempSync(join(tmpdir(), "ucs-data-")),
    });
    const healthy = await waitFor(
      async () =>
        npm.running &&
        (await httpGet(port, "/health", { timeoutMs: 1000 }).then(
          (r) => r.status === 200,
          () => false,
        )),
      60_000,
      100,
    );
    expect(healthy, npm.output()).toBe(true);
    expect(stamp(), "npm start compiled an up-to-date build").toBe(built);
    // The log may reach the pipe a little after /health answers.
    await waitFor(() => serverPid(npm) !== undefined, 5_000);
    const pid = serverPid(npm);
    expect(pid, npm.output()).toBeGreaterThan(0);
    expect(pid).not.toBe(npm.pid);
    // The start log says where the docs and the keys are, and / points to them.
    await waitFor(() => npm.stdout.includes("kill -HUP"), 5_000);
    expect(npm.stdout).toContain(`http://127.0.0.1:${port}/docs`);
    expect(npm.stdout).toMatch(/stored in \S+keys\.sqlite; the first: npx ucs keys create/);
    expect(npm.stdout).toContain(`kill -HUP ${pid}`);
    const root = await httpGet(port, "/");
    expect(root.status).toBe(200);
    expect(JSON.parse(root.body)).toMatchObject({ docs: "/docs", graphql: "/graphql" });

    npm.signal("SIGTERM");
    const stopped = await waitFor(() => !alive(pid as number), 15_000, 50);
    expect(stopped, `node ${pid} still running after SIGTERM to npm\n${npm.output()}`).toBe(true);
    expect(await npm.waitExit(5_000), npm.output()).toBeDefined();
    expect(npm.stdout).toContain('"msg":"stopped"');
  }, 90_000);
});
