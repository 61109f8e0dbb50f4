/**
 * `npm run docs`: rewrites the generated blocks of README.md and docs/api.md from the
 * registry. test/docs.test.ts fails when they are stale.
 */
import { readFile, writeFile } from "node:fs/promises";
import { loadOperations } from "../src/registry/loader.js";
import { GENERATED, replaceGenerated } from "./lib/docs.js";

const operations = await loadOperations();
for (const { file, block, render } of GENERATED) {
  const before = await readFile(file, "utf8");
  const after = replaceGenerated(before, block, render(operations));
  if (after !== before) await writeFile(file, after);
  console.log(`${file}: ${after === before ? "up to date" : "rewritten"}`);
}
