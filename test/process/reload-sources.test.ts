/**
 * `npm start` serves dist/; a newcomer's `npm run new:operation -- stats/trimmed-mean` writes
 * operations/stats/trimmed-mean.ts. SIGHUP must serve it without a rebuild (registry/loader.ts:
 * builtInFiles). Run on a copy of the checkout (package.json, dist/, operations/, the
 * node_modules link), so that the repository's own operations/ is never written.
 */
import { spawnSync } from "node:child_process";
import { cpSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { freePort, HOST, httpGet, Proc, ROOT, stopAll, waitFor } from "./helpers.js";

// What the scaffold writes (scripts/new-operation.ts), trimmed to what the loader checks.
const MEAN = `import { arithmeticFields, arithmeticResult, decimal, defineOperation, z } from "#kit";

export default defineOperation({
  area: "stats",
  name: "trimmed-mean",
  summary: "Returns x exactly as given",
  description: "Answers x unchanged.",
  input: z.object({ x: decimal({ description: "Any decimal number." }) }),
  output: z.object({ ...arithmeticFields }),
  examples: [{ title: "A decimal", input: { x: "0.1" }, output: { result: 0.1, decimal: "0.1" } }],
  handler: ({ x }) => arithmeticResult(x),
});
`;

describe("SIGHUP under npm start (dist/) follows operations/", () => {
  let checkout = "";
  beforeAll(() => {
    const build = spawnSync(process.execPath, ["scripts/build.mjs", "--if-stale"], {
      cwd: ROOT,
      encoding: "utf8",
      timeout: 240_000,
    });
    if (build.status !== 0) throw new Error(`build failed\n${build.stdout}${build.stderr}`);
    checkout = mkdtempSync(join(tmpdir(), "ucs-checkout-"));
    cpSync(join(ROOT, "package.json"), join(checkout, "package.json"));
    cpSync(join(ROOT, "dist"), join(checkout, "dist"), { recursive: true });
    cpSync(join(ROOT, "operations"), join(checkout, "operations"), {
      recursive: true,
      preserveTimestamps: true,
      filter: (source) => !source.endsWith(".test.ts"),
    });
    // dist/ copied now: newer than every source, as after npm start's prestart.
    symlinkSync(join(ROOT, "node_modules"), join(checkout, "node_modules"));
  }, 250_000);
  afterAll(async () => {
    await stopAll();
    rmSync(checkout, { recursive: true, force: true });
  });

  it("serves the scaffold's new module after kill -HUP", async () => {
    const port = await freePort();
    const server = new Proc(
      "dist server",
      process.execPath,
      [join(checkout, "dist/src/server.js")],
      {
        PATH: process.env.PATH ?? "",
        HOST,
        PORT: String(port),
        API_KEYS: "reload-sources-key",
        DATA_DIR: mkdtempSync(join(tmpdir(), "ucs-data-")),
      },
    );
    const headers = { "x-api-key": "reload-sources-key" };
    const status = (path: string) =>
      httpGet(port, path, { headers, timeoutMs: 2000 }).then(
        (r) => r.status,
        () => 0,
      );
    expect(await waitFor(async () => (await status("/health")) === 200, 60_000, 100)).toBe(true);
    expect(await status("/v1/math/sum?numbers=1,2")).toBe(200);
    expect(await status("/v1/stats/trimmed-mean?x=0.1")).toBe(404);

    writeFileSync(join(checkout, "operations/stats/trimmed-mean.ts"), MEAN);
    server.signal("SIGHUP");
    const reloaded = await waitFor(() => server.stdout.includes("operations reloaded"), 60_000);
    expect(reloaded, server.output()).toBe(true);
    const mean = await httpGet(port, "/v1/stats/trimmed-mean?x=0.1", { headers });
    expect(mean.status, server.output()).toBe(200);
    expect(JSON.parse(mean.body)).toEqual({ result: 0.1, decimal: "0.1" });
    // The compiled modules still serve beside it.
    expect(await status("/v1/math/sum?numbers=1,2")).toBe(200);
  }, 150_000);
});
