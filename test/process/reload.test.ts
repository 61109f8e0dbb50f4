/**
 * SIGHUP reloads the operations under load: modules added, changed and removed in the
 * operator's folder are picked up with no failed request, and a set that fails its checks
 * is refused (reason logged) while the old one keeps serving.
 */
import { mkdir, mkdtemp, rm, unlink, writeFile } from "node:fs/promises";
import { Agent } from "node:http";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, expect, it } from "vitest";
import { runLoad, type Server, startServer, stopAll, waitFor } from "./helpers.js";

const KEY = "reload-test-key";
const HEADERS = { "x-api-key": KEY };

/** A module answering `{ version }` at `ext/<name>`. */
const moduleText = (
  name: string,
  version: number,
) => `import { defineOperation, z } from "utility-calculation-service/kit";

export default defineOperation({
  area: "ext",
  name: "${name}",
  summary: "Answers its version",
  description: "A reload fixture.",
  input: z.object({}),
  output: z.object({ version: z.int() }),
  examples: [{ title: "its version", input: {}, output: { version: ${version} } }],
  handler: () => ({ version: ${version} }),
});
`;

let dir: string;
let server: Server;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), "ucs-reload-"));
  await mkdir(path.join(dir, "ext"));
  await writeFile(path.join(dir, "ext", "stays.js"), moduleText("stays", 1));
  await writeFile(path.join(dir, "ext", "changes.js"), moduleText("changes", 1));
  await writeFile(path.join(dir, "ext", "goes.js"), moduleText("goes", 1));
  server = await startServer({ API_KEYS: KEY, OPERATIONS_DIRS: dir }, { readyTimeoutMs: 60_000 });
}, 90_000);

afterAll(async () => {
  await stopAll();
  if (dir) await rm(dir, { recursive: true, force: true });
});

const get = (url: string) => server.get(url, { headers: HEADERS });
const status = async (url: string) => (await get(url)).status;

/** Sends SIGHUP and waits for the reload's outcome to be logged; returns that line's msg. */
async function reload(): Promise<string> {
  const done = () =>
    server.logs().filter((l) => /^operations reloaded|^reload refused/.test(l.msg ?? ""));
  const before = done().length;
  server.signal("SIGHUP");
  expect(await waitFor(() => done().length > before, 30_000)).toBe(true);
  return done().at(-1)?.msg ?? "";
}

it("SIGHUP under load: added, changed and removed modules, 0 failed requests", async () => {
  const agent = new Agent({ keepAlive: true, maxSockets: 8 });
  const failures: string[] = [];
  let requests = 0;
  let stop = false;
  const load = runLoad({
    clients: 8,
    maxRequests: 1_000_000,
    maxMs: 60_000,
    stopWhen: () => stop,
    task: async (i) => {
      const url = i % 2 === 0 ? "/v1/math/sum?numbers=1,2" : "/v1/ext/stays";
      try {
        const response = await server.get(url, { headers: HEADERS, agent });
        requests++;
        if (response.status !== 200) failures.push(`${url}: ${response.status} ${response.body}`);
      } catch (error) {
        failures.push(`${url}: ${(error as Error).message}`);
      }
    },
  });

  await writeFile(path.join(dir, "ext", "added.ts"), moduleText("added", 1));
  await writeFile(path.join(dir, "ext", "changes.js"), moduleText("changes", 2));
  await unlink(path.join(dir, "ext", "goes.js"));
  expect(await status("/v1/ext/added")).toBe(404);
  expect(await reload()).toBe("operations reloaded");
  const afterFirst = requests;
  expect(JSON.parse((await get("/v1/ext/added")).body)).toEqual({ version: 1 });
  expect(JSON.parse((await get("/v1/ext/changes")).body)).toEqual({ version: 2 });
  expect(await status("/v1/ext/goes")).toBe(404);
  const doc = JSON.parse((await server.get("/openapi.json")).body) as { paths: object };
  expect(Object.keys(doc.paths)).toContain("/v1/ext/added");
  expect(Object.keys(doc.paths)).not.toContain("/v1/ext/goes");

  // A module whose example does not answer as documented: refused, the old set serves on.
  await writeFile(
    path.join(dir, "ext", "broken.js"),
    moduleText("broken", 1).replace("({ version: 1 })", "({ version: 2 })"),
  );
  await writeFile(path.join(dir, "ext", "changes.js"), moduleText("changes", 3));
  expect(await reload()).toBe(
    "reload refused: the operations failed their checks; the previous set keeps serving",
  );
  const refusal = server.logged(
    "reload refused: the operations failed their checks; the previous set keeps serving",
  );
  expect(JSON.stringify(refusal.at(-1))).toContain("broken.js");
  expect(await status("/v1/ext/broken")).toBe(404);
  expect(JSON.parse((await get("/v1/ext/changes")).body)).toEqual({ version: 2 });

  // Let the load run on the set that survived, then stop it.
  await waitFor(() => requests > afterFirst + 200, 20_000);
  stop = true;
  await load;
  agent.destroy();
  expect(failures).toEqual([]);
  expect(requests).toBeGreaterThan(200);
  expect(server.running).toBe(true);
}, 120_000);
