/**
 * What starting the service loads is what it resides in: every module stays in memory for
 * the life of the process. The service's whole start graph (app, reload, key store, start
 * log, and what server.ts imports before it runs) is imported in a fresh node, and Node's
 * own modules it pulled in are checked.
 *
 * undici (Node's fetch, ~12 MB resident) is loaded by any ESM `import … from "node:http"`:
 * the ESM facade reads every export, and http's WebSocket, CloseEvent and MessageEvent are
 * getters that load it. The service serves HTTP and never fetches.
 */
import { spawnSync } from "node:child_process";
import { fileURLToPath } from "node:url";
import { expect, it } from "vitest";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const START_GRAPH = [
  "src/app.ts",
  "src/reload.ts",
  "src/access/keys/managed.ts",
  "src/start-log.ts",
  "src/cluster.ts",
  "src/http/drain.ts",
  "src/runtime/faults.ts",
  "src/runtime/tick-shape.ts",
];

it("loads no undici while the service starts", () => {
  const script = `
    for (const file of ${JSON.stringify(START_GRAPH)}) await import(new URL(file, "file://${ROOT}/").href);
    process.stdout.write(JSON.stringify(process.moduleLoadList.filter((m) => m.includes("undici"))));
    process.exit(0);`;
  const run = spawnSync(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "--eval", script],
    {
      cwd: ROOT,
      encoding: "utf8",
      env: { PATH: process.env.PATH },
      timeout: 60_000,
    },
  );
  expect(run.status, run.stderr).toBe(0);
  expect(JSON.parse(run.stdout)).toEqual([]);
}, 90_000);
