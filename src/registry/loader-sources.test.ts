/**
 * builtInFiles: what a reload from dist/ in a checkout loads, so that the scaffold's module
 * (or an edit since the build) serves at the next SIGHUP.
 */
import { mkdir, mkdtemp, rm, utimes, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { builtInFiles } from "./loader.js";

describe("builtInFiles", () => {
  let root = "";
  let dist = "";
  let sources = "";
  beforeEach(async () => {
    root = await mkdtemp(path.join(tmpdir(), "ucs-sources-"));
    dist = path.join(root, "dist", "operations");
    sources = path.join(root, "operations");
  });
  afterEach(() => rm(root, { recursive: true, force: true }));

  async function put(dir: string, file: string, seconds: number): Promise<string> {
    const full = path.join(dir, file);
    await mkdir(path.dirname(full), { recursive: true });
    await writeFile(full, "");
    await utimes(full, seconds, seconds);
    return full;
  }

  it("takes the compiled module when it is as new as its source, else the source", async () => {
    const sumJs = await put(dist, "math/sum.js", 2_000);
    await put(sources, "math/sum.ts", 1_000);
    await put(dist, "math/subtract.js", 2_000);
    const subtractTs = await put(sources, "math/subtract.ts", 3_000); // edited since the build
    const meanTs = await put(sources, "stats/mean.ts", 3_000); // the scaffold's, never built
    await put(sources, "stats/mean.test.ts", 3_000);
    await put(sources, "_testing.ts", 3_000);
    await put(sources, "stats/_helpers.ts", 3_000);
    expect((await builtInFiles(dist, sources))?.sort()).toEqual([sumJs, subtractTs, meanTs].sort());
  });

  it("leaves out a compiled module whose source was deleted", async () => {
    const sumJs = await put(dist, "math/sum.js", 2_000);
    await put(sources, "math/sum.ts", 1_000);
    await put(dist, "math/gone.js", 2_000);
    expect(await builtInFiles(dist, sources)).toEqual([sumJs]);
  });

  it("is undefined without a sources folder (an image ships dist/ only)", async () => {
    await put(dist, "math/sum.js", 2_000);
    expect(await builtInFiles(dist, sources)).toBeUndefined();
  });
});
