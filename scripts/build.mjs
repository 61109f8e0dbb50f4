/**
 * `npm run build`, and `npm start`'s prestart with `--if-stale`. Plain JavaScript, so that it
 * runs before anything is compiled and costs node's start only.
 *
 * - Refuses, in one line, a Node.js outside package.json's `engines` (node:sqlite needs 22.15).
 * - Compiles src/ and operations/ into a clean dist/ (a deleted module's output never lingers)
 *   and stamps dist/ with the time the compile began, once it succeeded; one build at a time.
 * - Then runs with node each compiled `*.prebuild.js` under dist/operations/ (from a helper
 *   `_<name>.prebuild.ts`): it writes the derived data its operation reads at run time
 *   beside itself in dist/ (docs/writing-an-operation.md). A failure fails the build.
 * - `--if-stale` compiles only when an input (src/, operations/, the tsconfigs, package.json,
 *   the lockfile) is newer than the stamp: a start with an up-to-date build does not rebuild.
 *   Directories count too: deleting or renaming a file changes its folder's time.
 */
import { spawnSync } from "node:child_process";
import {
  mkdirSync,
  readdirSync,
  readFileSync,
  rmSync,
  statSync,
  utimesSync,
  writeFileSync,
} from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const DIST = path.join(ROOT, "dist");
const STAMP = path.join(DIST, ".build-stamp");
const INPUT_DIRS = ["src", "operations"];
const INPUT_FILES = ["tsconfig.json", "tsconfig.build.json", "package.json", "package-lock.json"];

/**
 * Whether `version` (`20.20.2`) satisfies `range`, a `||` of caret ranges (`^22.15.0 || ^24.0.0`),
 * the only form package.json's `engines` uses; anything else is a programming error.
 */
export function satisfies(version, range) {
  const [major, minor, patch] = version.split(".").map(Number);
  return range.split("||").some((part) => {
    const match = /^\s*\^(\d+)\.(\d+)\.(\d+)\s*$/.exec(part);
    if (!match) throw new Error(`engines.node: unsupported range '${part.trim()}'`);
    const [want, wantMinor, wantPatch] = match.slice(1).map(Number);
    if (major !== want) return false;
    return minor > wantMinor || (minor === wantMinor && patch >= wantPatch);
  });
}

/** The one line a Node.js outside `range` gets, saying what to install; undefined if inside. */
export function nodeProblem(version, range) {
  if (satisfies(version, range)) return undefined;
  return `utility-calculation-service needs Node.js ${range} (node:sqlite); this is ${version}: install Node.js 24 (nvm install 24, or your package manager's nodejs 24) and run npm ci again.`;
}

/** The newest modification time among the build's inputs, files and folders alike. */
export function newestInput(root) {
  let newest = 0;
  const see = (file) => {
    try {
      newest = Math.max(newest, statSync(file).mtimeMs);
    } catch {
      // A lockfile may be absent; a file gone since the listing changed its folder's time.
    }
  };
  for (const file of INPUT_FILES) see(path.join(root, file));
  for (const dir of INPUT_DIRS) {
    see(path.join(root, dir));
    for (const entry of readdirSync(path.join(root, dir), {
      withFileTypes: true,
      recursive: true,
    })) {
      see(path.join(entry.parentPath, entry.name));
    }
  }
  return newest;
}

/** True when dist/ holds a successful build begun after every input last changed. */
export function upToDate(root) {
  let stamp;
  try {
    stamp = statSync(path.join(root, "dist", ".build-stamp")).mtimeMs;
    statSync(path.join(root, "dist", "src", "server.js"));
  } catch {
    return false;
  }
  return newestInput(root) <= stamp;
}

const LOCK = path.join(DIST, ".build-lock");

const alive = (pid) => {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return error.code === "EPERM";
  }
};

/**
 * Runs `build` holding dist/.build-lock: two starts (or two test files) at once would
 * otherwise empty and fill dist/ over each other. A lock whose process is gone is taken
 * over; waits at most 10 minutes for a live one.
 */
function locked(build) {
  mkdirSync(DIST, { recursive: true });
  const deadline = Date.now() + 600_000;
  for (;;) {
    try {
      writeFileSync(LOCK, String(process.pid), { flag: "wx" });
      break;
    } catch (error) {
      if (error.code !== "EEXIST") throw error;
      let live;
      try {
        // Empty: its holder is between creating it and writing its pid.
        const holder = Number(readFileSync(LOCK, "utf8"));
        live = holder > 0 ? alive(holder) : Date.now() - statSync(LOCK).mtimeMs < 10_000;
      } catch {
        continue; // released meanwhile
      }
      if (live && Date.now() < deadline) {
        Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 200);
      } else {
        rmSync(LOCK, { force: true });
      }
    }
  }
  try {
    build();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

/** The compiled prebuild modules under `dist`, in a stable order. */
export function prebuildModules(dist) {
  const dir = path.join(dist, "operations");
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true, recursive: true });
  } catch {
    return [];
  }
  return entries
    .filter((entry) => entry.isFile() && entry.name.endsWith(".prebuild.js"))
    .map((entry) => path.join(entry.parentPath, entry.name))
    .sort();
}

/**
 * Runs each prebuild module under `dist` with node, one at a time; returns the one line
 * saying which failed and why, or undefined when all succeeded.
 */
export function runPrebuilds(dist) {
  for (const file of prebuildModules(dist)) {
    const result = spawnSync(process.execPath, [file], {
      cwd: path.dirname(file),
      stdio: ["ignore", "inherit", "pipe"],
      encoding: "utf8",
    });
    if (result.status !== 0) {
      // Node's report of an uncaught error is several lines; its `Error: …` line says why.
      const lines = (result.stderr ?? "").split("\n");
      const why =
        lines.find((line) => /^\w*Error\b/.test(line)) ??
        lines.findLast((line) => line.trim() !== "") ??
        result.error?.message;
      const exit = result.status ?? result.signal;
      return `build: ${path.relative(path.dirname(dist), file)} failed (exit ${exit})${why ? `: ${why}` : ""}`;
    }
  }
  return undefined;
}

function compile() {
  const began = new Date();
  for (const entry of readdirSync(DIST)) {
    if (entry !== ".build-lock") rmSync(path.join(DIST, entry), { recursive: true, force: true });
  }
  const tsc = createRequire(import.meta.url).resolve("typescript/bin/tsc");
  const result = spawnSync(process.execPath, [tsc, "-p", "tsconfig.build.json"], {
    cwd: ROOT,
    stdio: "inherit",
  });
  if (result.status !== 0) return result.status ?? 1;
  const failed = runPrebuilds(DIST);
  if (failed) {
    process.stderr.write(`${failed}\n`);
    return 1;
  }
  writeFileSync(STAMP, "");
  utimesSync(STAMP, began, began);
  return 0;
}

function main() {
  const pkg = JSON.parse(readFileSync(path.join(ROOT, "package.json"), "utf8"));
  const problem = nodeProblem(process.versions.node, pkg.engines.node);
  if (problem) {
    process.stderr.write(`${problem}\n`);
    process.exit(1);
  }
  const ifStale = process.argv.includes("--if-stale");
  if (ifStale && upToDate(ROOT)) return;
  let status = 0;
  // Checked again under the lock: another build may have just finished.
  locked(() => {
    if (!(ifStale && upToDate(ROOT))) status = compile();
  });
  if (status !== 0) process.exit(status);
}

if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) main();
