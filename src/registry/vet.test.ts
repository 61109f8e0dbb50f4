import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { pathToFileURL } from "node:url";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPERATION_QUERY } from "./kit-resolution.js";
import { MAX_EXAMPLES, MAX_PARAMETERS, VET_HEAP_MB, type Verdict, vetModules } from "./vet.js";

/** A module at `ext/<name>`: `before` runs at import; `params` and `examples` are counts. */
const moduleText = (name: string, { before = "", params = 0, examples = 1 } = {}) => `
import { defineOperation, integer, z } from "utility-calculation-service/kit";
${before}
export default defineOperation({
  area: "ext",
  name: "${name}",
  summary: "A vetting fixture",
  description: "A vetting fixture.",
  input: z.object(Object.fromEntries(Array.from({ length: ${params} }, (_, i) => [\`p\${i}\`, integer().optional()]))),
  output: z.object({ ok: z.boolean() }),
  examples: Array.from({ length: ${examples} }, () => ({ title: "ok", input: {}, output: { ok: true } })),
  handler: () => ({ ok: true }),
});
`;

/** What each module does, and the refusal it must get (undefined: the process may import it). */
const CASES: Record<string, { text: string; refusal: RegExp | undefined }> = {
  "good.js": { text: moduleText("good"), refusal: undefined },
  "typed.ts": {
    text: moduleText("typed", { before: "const n: number = 1;", params: MAX_PARAMETERS }),
    refusal: undefined,
  },
  "throws.js": {
    // Answered as an import error, which the serving process reports as it always has.
    text: `throw new Error("not written yet");\n`,
    refusal: undefined,
  },
  "never-settles.js": {
    text: moduleText("never-settles", { before: "await new Promise(() => {});" }),
    refusal: /import never finished/,
  },
  "rejects.js": {
    text: moduleText("rejects", { before: 'Promise.reject(new Error("floating"));' }),
    refusal: /left a promise rejection unhandled at import: floating/,
  },
  "throws-later.js": {
    text: moduleText("throws-later", {
      before: 'setImmediate(() => { throw new Error("later"); });',
    }),
    refusal: /threw outside its import \(an uncaught exception\): later/,
  },
  "exits.js": {
    text: moduleText("exits", { before: "process.exit(3);" }),
    refusal: /ended its thread \(exit code 3\)/,
  },
  "loops.js": {
    text: moduleText("loops", { before: "for (;;) {}" }),
    refusal: /did not finish within 3000 ms/,
  },
  "example-loops.js": {
    text: moduleText("example-loops").replace(
      "handler: () =>",
      "handler: () => { for (;;) {} },\n  _x: () =>",
    ),
    refusal: /did not finish within 3000 ms/,
  },
  "eats-memory.js": {
    text: moduleText("eats-memory", {
      before: "const kept = []; for (;;) kept.push(new Array(100_000).fill(1.5));",
    }),
    refusal: new RegExp(
      `ran out of memory while imported and checked \\(a ${VET_HEAP_MB} MB heap\\)`,
    ),
  },
  "many-params.js": {
    text: moduleText("many-params", { params: MAX_PARAMETERS + 1 }),
    refusal: new RegExp(`declares ${MAX_PARAMETERS + 1} parameters; at most ${MAX_PARAMETERS}`),
  },
  "many-examples.js": {
    text: moduleText("many-examples", { examples: MAX_EXAMPLES + 1 }),
    refusal: new RegExp(`declares ${MAX_EXAMPLES + 1} examples; at most ${MAX_EXAMPLES}`),
  },
  "after.js": { text: moduleText("after"), refusal: undefined },
};

describe("vetModules", () => {
  let dir: string;
  const verdicts = new Map<string, Verdict | undefined>();

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ucs-vet-"));
    const jobs = [];
    for (const [name, { text }] of Object.entries(CASES)) {
      const file = path.join(dir, name);
      await writeFile(file, text);
      jobs.push({ file, url: `${pathToFileURL(file).href}?${OPERATION_QUERY}` });
    }
    // All in one call, in this order: each refused module's worker is replaced for the rest.
    const answers = vetModules(jobs, {
      serviceUrl: new URL("./loader.ts", import.meta.url).href,
      fromSource: true,
      typescript: true,
      timeoutMs: 3_000,
    });
    for (const { file } of jobs) verdicts.set(path.basename(file), await answers.get(file));
  }, 120_000);

  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it.each(Object.entries(CASES))("%s", (name, { refusal }) => {
    const verdict = verdicts.get(name);
    if (refusal === undefined) expect(verdict?.refusal).toBeUndefined();
    else expect(verdict?.refusal).toMatch(refusal);
    expect(verdict?.importError).toBe(name === "throws.js" ? "not written yet" : undefined);
  });

  it("answers an empty list with no worker", () => {
    expect(
      vetModules([], { serviceUrl: import.meta.url, fromSource: true, typescript: true }).size,
    ).toBe(0);
  });
});

describe("vetModules' worker", () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("runs a module's examples through zod without its compiled parsers", async () => {
    // Each schema parses a few examples there, once: compiling parsers would be waste.
    dir = await mkdtemp(path.join(tmpdir(), "ucs-vet-jitless-"));
    const file = path.join(dir, "jitless.js");
    await writeFile(
      file,
      moduleText("jitless").replace(
        "handler: () => ({ ok: true })",
        "handler: () => ({ ok: z.config().jitless === true })",
      ),
    );
    const answers = vetModules([{ file, url: `${pathToFileURL(file).href}?${OPERATION_QUERY}` }], {
      serviceUrl: new URL("./loader.ts", import.meta.url).href,
      fromSource: true,
      typescript: true,
    });
    expect(await answers.get(file)).toEqual(expect.objectContaining({ problems: [] }));
  }, 60_000);
});

describe("vetModules in batches", () => {
  let dir: string;
  afterAll(async () => {
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  it("answers a batch in one message, after one wait, and names the module a batch's fault came from", async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ucs-vet-batch-"));
    const texts: Record<string, string> = {
      "first.js": moduleText("first"),
      "second.js": moduleText("second"),
      "good.js": moduleText("good"),
      "rejects.js": moduleText("rejects", { before: 'Promise.reject(new Error("floating"));' }),
      "after.js": moduleText("after"),
    };
    const vet = async (names: string[]) => {
      const jobs = [];
      for (const name of names) {
        const file = path.join(dir, name);
        await writeFile(file, texts[name] as string);
        jobs.push({ file, url: `${pathToFileURL(file).href}?${OPERATION_QUERY}` });
      }
      return vetModules(jobs, {
        serviceUrl: new URL("./loader.ts", import.meta.url).href,
        fromSource: true,
        typescript: true,
      });
    };
    const pair = await vet(["first.js", "second.js"]);
    const second = pair.get(path.join(dir, "second.js"));
    // Settled in the same turn as the first: one message, not one wait and message each.
    const secondPending = await pair
      .get(path.join(dir, "first.js"))
      ?.then(() => inspect(second).includes("<pending>"));
    expect(secondPending).toBe(false);
    // toEqual: a verdict from Node 22's child process has no `refusal` key at all.
    expect(await second).toEqual(expect.objectContaining({ problems: [] }));
    expect((await second)?.refusal).toBeUndefined();
    const answers = await vet(["good.js", "rejects.js", "after.js"]);
    const verdict = async (name: string) => answers.get(path.join(dir, name));
    // The batch left a rejection: its modules vetted again one at a time, only the culprit refused.
    expect((await verdict("rejects.js"))?.refusal).toMatch(/left a promise rejection unhandled/);
    for (const name of ["good.js", "after.js"]) {
      expect(await verdict(name), name).toEqual(expect.objectContaining({ problems: [] }));
      expect((await verdict(name))?.refusal, name).toBeUndefined();
    }
  }, 60_000);
});
