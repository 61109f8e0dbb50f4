/** The service's version, from the nearest package.json above this file (src/ or dist/src/). */
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";

function findPackageJson(start: string): string {
  for (let dir = start; ; dir = path.dirname(dir)) {
    const candidate = path.join(dir, "package.json");
    if (existsSync(candidate)) return candidate;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${start}`);
  }
}

export const VERSION: string = (
  JSON.parse(
    readFileSync(findPackageJson(path.dirname(fileURLToPath(import.meta.url))), "utf8"),
  ) as { version: string }
).version;
