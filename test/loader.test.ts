/** Discovery: modules are found by path, and anything malformed stops the start. */
import { copyFile, mkdir, mkdtemp, readFile, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import type { AnyOperation } from "../src/kit/define.js";
import { defineOperation, integer, z } from "../src/kit/index.js";
import {
  checkOperation,
  DEFAULT_OPERATIONS_DIR,
  loadOperations,
  moduleUrl,
  OperationLoadError,
  prepareOperations,
  recordImport,
} from "../src/registry/loader.js";
import { MAX_EXAMPLES, MAX_PARAMETERS } from "../src/registry/vet.js";
import { AUTH, TEST_KEY } from "./helpers.js";

const fixtures = (dir: string) => fileURLToPath(new URL(`./fixtures/${dir}/`, import.meta.url));

/** Writes the echo fixture to `dir`/extra/echo.ts with `header` above it; answers its path. */
async function echoWith(dir: string, header: string): Promise<string> {
  await mkdir(path.join(dir, "extra"), { recursive: true });
  const echo = await readFile(path.join(fixtures("operations"), "extra", "echo.ts"), "utf8");
  const file = path.join(dir, "extra", "echo.ts");
  await writeFile(file, `${header}\n${echo}`);
  return file;
}
describe("checkOperation", () => {
  const withShape = (parameters: number, examples: number) =>
    defineOperation({
      area: "extra",
      name: "wide",
      summary: "Many parameters",
      description: "A limits fixture.",
      input: z.object(
        Object.fromEntries(
          Array.from({ length: parameters }, (_, i) => [`p${i}`, integer().optional()]),
        ),
      ),
      output: z.object({ ok: z.boolean() }),
      examples: Array.from({ length: examples }, () => ({
        title: "ok",
        input: {},
        output: { ok: true },
      })),
      handler: () => ({ ok: true }),
    }) as unknown as AnyOperation;

  it("refuses more parameters or examples than the bounds, before anything else", () => {
    expect(checkOperation(withShape(MAX_PARAMETERS, MAX_EXAMPLES))).toEqual([]);
    expect(checkOperation(withShape(MAX_PARAMETERS + 1, MAX_EXAMPLES + 1))).toEqual([
      `declares ${MAX_PARAMETERS + 1} parameters; at most ${MAX_PARAMETERS} are allowed`,
      `declares ${MAX_EXAMPLES + 1} examples; at most ${MAX_EXAMPLES} are allowed`,
    ]);
  });
});

describe("loadOperations", () => {
  it("finds every module and skips tests and _helpers", async () => {
    const operations = await loadOperations();
    const ids = operations.map((o) => `${o.area}/${o.name}`);
    expect(ids).toContain("math/sum");
    expect(ids.some((id) => id.includes("_") || id.endsWith(".test"))).toBe(false);
  });

  it("a dropped-in module becomes a REST route with no other edit", async () => {
    const operations = await loadOperations([DEFAULT_OPERATIONS_DIR, fixtures("operations")]);
    const app = await buildApp({
      config: loadConfig({ API_KEYS: TEST_KEY }),
      operations,
      logger: false,
    });
    const response = await app.inject({ url: "/v1/extra/echo?n=21", headers: AUTH });
    expect(response.json()).toEqual({ n: 21, doubled: 42 });
    const doc = (await app.inject({ url: "/openapi.json" })).json();
    expect(doc.paths["/v1/extra/echo"]).toBeDefined();
    await app.close();
  });

  it("stops with every problem named: clash, bad or failing example, not an operation", async () => {
    const load = loadOperations([DEFAULT_OPERATIONS_DIR, fixtures("broken-operations")]);
    await expect(load).rejects.toThrow(OperationLoadError);
    const message = await load.catch((error: Error) => error.message);
    expect(message).toMatch(/'math\/sum' is already defined by/);
    expect(message).toMatch(/example 0 input/);
    expect(message).toMatch(/not-an-operation\.ts: the default export is not an operation/);
    expect(message).toMatch(
      /wrong-answer\.ts: example 0 answers \{"n":3\}, not its documented output/,
    );
    expect(message).toMatch(/throws-on-example\.ts: example 0 fails: not written yet/);
  });

  it("refuses a module the vetting worker refuses, without importing it here", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ucs-loader-vet-"));
    try {
      // Marks this thread when imported, then leaves a rejection nothing handles.
      const file = await echoWith(
        dir,
        `(globalThis as Record<string, unknown>).ucsVetImported = true;\nPromise.reject(new Error("floating"));`,
      );
      const refused: string[] = [];
      const message = await loadOperations([dir], {
        fresh: true,
        refused: (where, reason) => refused.push(`${where}: ${reason}`),
      }).catch((error: Error) => error.message);
      expect(message).toContain(`${file}: refused: left a promise rejection unhandled at import`);
      expect(refused).toEqual([`${file}: left a promise rejection unhandled at import: floating`]);
      expect((globalThis as Record<string, unknown>).ucsVetImported).toBeUndefined();

      // An import that fails in the worker only: reported as any failed import, and the
      // calling thread never imports it.
      await echoWith(
        dir,
        // The vetting runs in a worker thread, or (Node 22) a child process with UCS_VET_DATA.
        `import { isMainThread } from "node:worker_threads";\nif (!isMainThread || process.env.UCS_VET_DATA) throw new Error("worker only");\n(globalThis as Record<string, unknown>).ucsVetImported = true;`,
      );
      const failed = await loadOperations([dir], { fresh: true }).catch(
        (error: Error) => error.message,
      );
      expect(failed).toContain(`${file}: cannot be imported: worker only`);
      expect((globalThis as Record<string, unknown>).ucsVetImported).toBeUndefined();
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("takes the verdicts begun by prepareOperations, for files that still hold what was vetted", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ucs-loader-ahead-"));
    try {
      await mkdir(path.join(dir, "extra"));
      const echo = await readFile(path.join(fixtures("operations"), "extra", "echo.ts"), "utf8");
      // Refused by a worker started while the variable is set (a worker copies the environment).
      const probe = (tail: string) =>
        `if (process.env.UCS_VET_PROBE === "refuse") Promise.reject(new Error("probe"));\n${echo}${tail}`;
      const kept = path.join(dir, "extra", "echo.ts");
      const changed = path.join(dir, "extra", "twice.ts");
      await writeFile(kept, probe(""));
      await writeFile(changed, probe("").replace('name: "echo"', 'name: "twice"'));
      process.env.UCS_VET_PROBE = "refuse";
      try {
        await prepareOperations([dir]);
      } finally {
        delete process.env.UCS_VET_PROBE;
      }
      // Changed after it was vetted: vetted anew (without the variable) by the load.
      await writeFile(changed, probe("// changed\n").replace('name: "echo"', 'name: "twice"'));
      const message = await loadOperations([dir]).then(
        () => "",
        (error: Error) => error.message,
      );
      expect(message).toContain(`${kept}: refused: left a promise rejection unhandled`);
      expect(message).not.toContain(changed);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("begins one vetting ahead: a second prepareOperations before the load begins none", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ucs-loader-ahead-once-"));
    try {
      // Refused only by a worker started while the variable is set: the first one.
      const file = await echoWith(
        dir,
        `if (process.env.UCS_VET_PROBE === "refuse") Promise.reject(new Error("probe"));`,
      );
      process.env.UCS_VET_PROBE = "refuse";
      try {
        await prepareOperations([dir]);
      } finally {
        delete process.env.UCS_VET_PROBE;
      }
      // server.ts begins it before the app loads, and buildReloadableApp asks again.
      await prepareOperations([dir]);
      const message = await loadOperations([dir]).then(
        () => "",
        (error: Error) => error.message,
      );
      expect(message).toContain(`${file}: refused: left a promise rejection unhandled`);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a reload imports anew only the modules whose file changed (Node never frees a module)", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ucs-loader-"));
    try {
      const area = path.join(dir, "extra");
      await mkdir(area);
      const echo = path.join(area, "echo.ts");
      await copyFile(path.join(fixtures("operations"), "extra", "echo.ts"), echo);
      // Left alone for a while, as a file is before an operator's SIGHUP.
      const aged = async () =>
        utimes(echo, new Date(Date.now() - 60_000), new Date(Date.now() - 60_000));
      await aged();
      const echoOf = (operations: Awaited<ReturnType<typeof loadOperations>>) =>
        operations.find((operation) => operation.name === "echo");
      const sumOf = (operations: Awaited<ReturnType<typeof loadOperations>>) =>
        operations.find((operation) => operation.name === "sum");
      const first = await loadOperations([DEFAULT_OPERATIONS_DIR, dir], { fresh: true });
      const again = await loadOperations([DEFAULT_OPERATIONS_DIR, dir], { fresh: true });
      expect(echoOf(again)).toBe(echoOf(first));
      expect(sumOf(again)).toBe(sumOf(first));
      const text = await readFile(echo, "utf8");
      await writeFile(echo, `${text}\n// changed\n`);
      await aged();
      const changed = await loadOperations([DEFAULT_OPERATIONS_DIR, dir], { fresh: true });
      expect(echoOf(changed)).not.toBe(echoOf(first));
      expect(echoOf(changed)?.name).toBe("echo");
      expect(sumOf(changed)).toBe(sumOf(first));
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });

  it("a file written while or just before it was imported is imported anew next time", async () => {
    const dir = await mkdtemp(path.join(tmpdir(), "ucs-loader-race-"));
    try {
      const file = path.join(dir, "race.js");
      const write = async (text: string, ageMs: number) => {
        await writeFile(file, text);
        const when = new Date(Date.now() - ageMs);
        await utimes(file, when, when);
      };
      await write("export default 1;\n", 60_000);
      const first = await moduleUrl(file, "", true);
      // Written twice during the import, back to the hashed bytes: the hash cannot tell.
      await write("export default 1;\n", 0);
      await recordImport(file, first);
      const again = await moduleUrl(file, "", true);
      expect(again.hash).toBe(first.hash);
      expect(again.url).not.toBe(first.url);
      // Left alone since: trusted, and imported from the same URL from then on.
      await write("export default 1;\n", 60_000);
      const settled = await moduleUrl(file, "", true);
      await recordImport(file, settled);
      expect((await moduleUrl(file, "", true)).url).toBe(settled.url);
    } finally {
      await rm(dir, { recursive: true, force: true });
    }
  });
});
