/**
 * scripts/build.mjs, `npm start`'s prestart: one line for a Node.js outside `engines`, no
 * compile when dist/ holds a build newer than every input, and the operations' prebuild
 * modules run once compiled.
 */
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import {
  nodeProblem,
  prebuildModules,
  runPrebuilds,
  satisfies,
  upToDate,
} from "../scripts/build.mjs";

const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
  engines: { node: string };
  scripts: Record<string, string>;
};

describe("the Node.js check", () => {
  it.each([
    ["22.15.0", true],
    ["22.14.9", false],
    ["22.21.1", true],
    ["23.11.0", false],
    ["24.0.0", true],
    ["24.21.0", true],
    ["20.20.2", false],
    ["25.1.0", false],
  ])("%s satisfies engines: %s", (version, expected) => {
    expect(satisfies(version, pkg.engines.node)).toBe(expected);
  });

  it("says in one line what to install", () => {
    const line = nodeProblem("20.20.2", pkg.engines.node) ?? "";
    expect(line).not.toContain("\n");
    expect(line).toContain("this is 20.20.2");
    expect(line).toMatch(/install Node\.js 24/);
    expect(nodeProblem("24.21.0", pkg.engines.node)).toBeUndefined();
  });

  it("runs before every start", () => {
    expect(pkg.scripts.prestart).toBe("node scripts/build.mjs --if-stale");
  });
});

describe("the up-to-date check", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A tree built at `built` (seconds since the epoch), its inputs written at `written`. */
  function tree(written: number, built: number): string {
    root = mkdtempSync(path.join(tmpdir(), "ucs-build-"));
    const files = ["src/server.ts", "operations/math/sum.ts", "tsconfig.json", "package.json"];
    for (const file of [...files, "dist/src/server.js", "dist/.build-stamp"]) {
      mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
      writeFileSync(path.join(root, file), "");
    }
    for (const file of [...files, "src", "operations", "operations/math"]) {
      utimesSync(path.join(root, file), written, written);
    }
    utimesSync(path.join(root, "dist/.build-stamp"), built, built);
    return root;
  }

  it("is up to date when the build began after every input", () => {
    expect(upToDate(tree(1_000, 2_000))).toBe(true);
  });

  it("is stale when a source changed since", () => {
    const dir = tree(1_000, 2_000);
    utimesSync(path.join(dir, "operations/math/sum.ts"), 3_000, 3_000);
    expect(upToDate(dir)).toBe(false);
  });

  it("is stale when a source was added or deleted (its folder changed)", () => {
    const dir = tree(1_000, 2_000);
    rmSync(path.join(dir, "operations/math/sum.ts"));
    expect(upToDate(dir)).toBe(false);
  });

  it("is stale without a stamp (a failed or foreign build) or without dist", () => {
    const dir = tree(1_000, 2_000);
    rmSync(path.join(dir, "dist/.build-stamp"));
    expect(upToDate(dir)).toBe(false);
    rmSync(path.join(dir, "dist"), { recursive: true });
    expect(upToDate(dir)).toBe(false);
  });
});

describe("the prebuild step", () => {
  let root = "";
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  /** A dist/ holding `files` (path under dist/ to contents). */
  function dist(files: Record<string, string>): string {
    root = mkdtempSync(path.join(tmpdir(), "ucs-prebuild-"));
    for (const [file, text] of Object.entries(files)) {
      mkdirSync(path.dirname(path.join(root, "dist", file)), { recursive: true });
      writeFileSync(path.join(root, "dist", file), text);
    }
    return path.join(root, "dist");
  }
  /** A prebuild module writing `name` beside itself. */
  const writes = (name: string) =>
    `import { writeFileSync } from "node:fs";\nwriteFileSync(new URL("./${name}", import.meta.url), "data");\n`;
  const fails = "throw new Error('no lists');\n";

  it("runs each compiled *.prebuild.js under dist/operations, which writes beside itself", () => {
    const out = dist({
      "operations/misc/_words.prebuild.js": writes("_words.bin"),
      "operations/text/deep/_table.prebuild.js": writes("_table.bin"),
      "operations/misc/_words.prebuild.js.map": fails,
      "operations/misc/_words.prebuild.d.ts": fails,
      "operations/misc/_words.js": fails,
      "src/_other.prebuild.js": fails,
    });
    expect(prebuildModules(out).map((file) => path.relative(out, file))).toEqual([
      path.join("operations", "misc", "_words.prebuild.js"),
      path.join("operations", "text", "deep", "_table.prebuild.js"),
    ]);
    expect(runPrebuilds(out)).toBeUndefined();
    expect(readFileSync(path.join(out, "operations/misc/_words.bin"), "utf8")).toBe("data");
    expect(existsSync(path.join(out, "operations/text/deep/_table.bin"))).toBe(true);
  });

  it("fails the build in one line naming the module and its error", () => {
    const out = dist({
      "operations/misc/_a.prebuild.js": fails,
      "operations/misc/_b.prebuild.js": writes("_b.bin"),
    });
    const line = runPrebuilds(out) ?? "";
    expect(line).toBe(
      `build: ${path.join("dist", "operations", "misc", "_a.prebuild.js")} failed (exit 1): Error: no lists`,
    );
    expect(existsSync(path.join(out, "operations/misc/_b.bin"))).toBe(false);
  });

  it("finds nothing to run without operations in dist/", () => {
    expect(prebuildModules(dist({ "src/server.js": "" }))).toEqual([]);
  });
});
