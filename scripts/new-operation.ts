/**
 * `npm run new:operation -- <area>/<name>`: writes `operations/<area>/<name>.ts` and its
 * test from a template that passes lint, typecheck and every registry-driven suite as
 * generated: an operation returning the decimal it is given, to be rewritten into the real
 * calculation (docs/writing-an-operation.md). Never overwrites a file.
 */
import { existsSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { loadOperations } from "../src/registry/loader.js";
import { writeGeneratedDocs } from "./lib/docs.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const ID = /^([a-z][a-z0-9-]*)\/([a-z][a-z0-9-]*(?:\/[a-z][a-z0-9-]*)*)$/;

function moduleText(area: string, name: string): string {
  return `import { arithmeticFields, arithmeticResult, decimal, defineOperation, z } from "#kit";

// Scaffolded by \`npm run new:operation\`: it answers \`x\` unchanged. Rewrite the summary,
// description, parameters, examples and handler into what ${area}/${name} calculates; the
// rules an operation follows are in docs/writing-an-operation.md.
export default defineOperation({
  area: "${area}",
  name: "${name}",
  summary: "Returns x exactly as given",
  description:
    "Answers \`x\` unchanged: \`decimal\` is its exact value in plain notation, \`result\` the double " +
    "nearest to it.",
  input: z.object({
    x: decimal({ description: "Any decimal number." }),
  }),
  output: z.object({ ...arithmeticFields }),
  examples: [
    { title: "A decimal fraction", input: { x: "0.1" }, output: { result: 0.1, decimal: "0.1" } },
  ],
  handler: ({ x }) => arithmeticResult(x),
});
`;
}

function testText(area: string, name: string, depth: number): string {
  const up = "../".repeat(depth);
  const base = name.split("/").pop();
  return `import { describe, expect, it } from "vitest";
import { execute } from "${up}../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "${up}_testing.js";
import operation from "./${base}.js";

describe("${area}/${name}", () => {
  itAnswersItsExamples(operation);

  it.each([
    // x, result, decimal
    ["0.1", 0.1, "0.1"],
    ["-2.5E-3", -0.0025, "-0.0025"],
    ["9007199254740993", 9007199254740992, "9007199254740993"],
  ])("x = %s", (x, result, decimal) => {
    expect(execute(operation, { x })).toEqual({ result, decimal });
  });

  it.each([
    [{}, [[["x"], "missing"]]],
    [{ x: "abc" }, [[["x"], "float_parsing"]]],
  ])("rejects %j", (input, expected) => {
    expect(locTypes(problemsOf(operation, input))).toEqual(expected);
  });
});
`;
}

async function main(): Promise<void> {
  const id = process.argv[2] ?? "";
  const match = ID.exec(id);
  if (!match) {
    process.stderr.write(
      `usage: npm run new:operation -- <area>/<name>   (lowercase words and dashes, e.g. stats/trimmed-mean; got '${id}')\n`,
    );
    process.exit(2);
  }
  const [, area = "", name = ""] = match;
  const file = path.join(ROOT, "operations", area, `${name}.ts`);
  const test = path.join(ROOT, "operations", area, `${name}.test.ts`);
  for (const target of [file, test]) {
    if (existsSync(target)) {
      process.stderr.write(`${path.relative(ROOT, target)} already exists; nothing written\n`);
      process.exit(1);
    }
  }
  const depth = 1 + name.split("/").length - 1;
  await mkdir(path.dirname(file), { recursive: true });
  await writeFile(file, moduleText(area, name));
  await writeFile(test, testText(area, name, depth));
  // The README table, docs/api.md and the GraphQL SDL come from the registry: regenerated, they list it.
  await writeGeneratedDocs(await loadOperations(), ROOT);
  process.stdout.write(
    `wrote ${path.relative(ROOT, file)} and ${path.relative(ROOT, test)}; README.md, docs/api.md and docs/graphql-schema.md regenerated\n` +
      `next: edit them, then npx vitest run ${path.relative(ROOT, test)}, then npm test\n` +
      `to serve it: kill -HUP <the pid npm start's log prints> (a reload reads operations/), or restart npm start\n`,
  );
}

await main();
