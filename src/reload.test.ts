import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "./config.js";
import { buildReloadableApp, type ReloadableApp } from "./reload.js";

// Reloading under load, with modules added, changed and removed, is test/process/reload.test.ts;
// this is the bound on how long one reload may hold the next ones.
const moduleText = (name: string, tail = "") => `import { defineOperation, z } from "#kit";
export default defineOperation({
  area: "ext",
  name: "${name}",
  summary: "A reload fixture",
  description: "A reload fixture.",
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  examples: [{ title: "ok", input: {}, output: { ok: true } }],
  handler: () => ({ ok: true }),
});
${tail}`;

describe("a reload", () => {
  let dir: string;
  let service: ReloadableApp;
  const logged: string[] = [];

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ucs-reload-unit-"));
    await mkdir(path.join(dir, "ext"));
    await writeFile(path.join(dir, "ext", "good.ts"), moduleText("good"));
    // Left alone for a while, as files are before an operator's SIGHUP: imported once, then
    // taken from Node's cache (a file just written is imported, and vetted, anew).
    const longAgo = new Date(Date.now() - 60_000);
    await utimes(path.join(dir, "ext", "good.ts"), longAgo, longAgo);
    service = await buildReloadableApp(
      loadConfig({ API_KEYS: "k", OPERATIONS_DIRS: dir, LOG_LEVEL: "error" }),
      { reloadTimeoutMs: 500 },
    );
    const log = service.app.log as unknown as { error: (o: object, m: string) => void };
    const error = log.error.bind(log);
    log.error = (object, message) => {
      logged.push(message);
      error(object, message);
    };
  });

  afterAll(async () => {
    await service?.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("whose module never finishes importing is refused in time, and the next one runs", async () => {
    // A top-level await on a promise nothing resolves, in the serving thread only: the
    // vetting worker (registry/vet.ts; a child process with UCS_VET_DATA on Node 22) passes
    // it, and its import there never settles.
    const stuck = path.join(dir, "ext", "stuck.ts");
    await writeFile(
      stuck,
      moduleText(
        "stuck",
        'import { isMainThread } from "node:worker_threads";\nif (isMainThread && !process.env.UCS_VET_DATA) await new Promise(() => {});\n',
      ),
    );
    const started = performance.now();
    expect(await service.reload()).toBe(false);
    expect(performance.now() - started).toBeLessThan(5_000);
    expect(logged.at(-1)).toBe(
      `reload refused: the import of ${stuck} never finished; the previous set keeps serving`,
    );
    await rm(stuck);
    expect(await service.reload()).toBe(true);
    const answer = await service
      .current()
      .inject({ url: "/v1/ext/good", headers: { "x-api-key": "k" } });
    expect(answer.json()).toEqual({ ok: true });
  });
});
