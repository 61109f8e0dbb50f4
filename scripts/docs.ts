/**
 * `npm run docs`: rewrites the generated blocks of README.md and docs/api.md from the
 * registry. test/docs.test.ts fails when they are stale.
 */
import { loadOperations } from "../src/registry/loader.js";
import { writeGeneratedDocs } from "./lib/docs.js";

for (const { file, changed } of await writeGeneratedDocs(await loadOperations())) {
  console.log(`${file}: ${changed ? "rewritten" : "up to date"}`);
}
