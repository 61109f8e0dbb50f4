/**
 * The rules of API.md §8, one row each: a recipe and what it answers, run in-process
 * through the one runner over the real registry (REST, MCP and the CLI add only access
 * and framing: test/recipes.test.ts).
 */
import { createHash } from "node:crypto";
import { beforeAll, describe, expect, it } from "vitest";
import { loadOperations } from "../registry/loader.js";
import {
  checkRecipe,
  MAX_RECIPE_STEPS,
  priceRecipe,
  type RecipeBook,
  recipeBook,
  runRecipe,
} from "./recipes.js";
import { execute } from "./runner.js";

let book: RecipeBook;
beforeAll(async () => {
  book = recipeBook(await loadOperations());
});

type Json = Record<string, unknown>;

/** What `POST /v1/recipes` answers for `body` (no key, no quota): status and body. */
function answer(body: unknown, dryRun = false): { status: number; body: Json } {
  const check = checkRecipe(book, body, { source: "body" });
  if (check.recipe === undefined) return { status: 422, body: { detail: check.problems } };
  if (dryRun) return { status: 200, body: priceRecipe(check.recipe) as unknown as Json };
  const faults: unknown[] = [];
  const { answer } = runRecipe(book, check.recipe, execute, (error) => faults.push(error));
  expect(faults).toEqual([]);
  return { status: 200, body: answer as unknown as Json };
}

const md5 = (text: string) => createHash("md5").update(text).digest("hex");
const step = (id: string, op: string, args: Json = {}) => ({ id, op, args });
const ref = (path: string) => ({ $ref: path });
const sum = (id: string, numbers: unknown) => step(id, "math/sum", { numbers });
/** The costliest legal FizzBuzz: 10,000 items of ten 32-character words (~3.3 MB). */
const costlyFizzbuzz = (id: string, end: unknown = 10_000) =>
  step(id, "misc/fizzbuzz", {
    start: 1,
    end,
    rules: Array.from({ length: 10 }, (_, i) => `1:${String.fromCharCode(65 + i).repeat(32)}`),
  });
const EXACT = "9007199254740993.000000000000000001";

const CONTRACT = {
  steps: [
    step("total", "math/sum", { numbers: ["0.1", "0.2", "0.7"] }),
    step("root", "math/nth-root", { number: ref("total.decimal"), degree: 2 }),
    step("digest", "crypto/checksum/md5", { text: ref("root.decimal") }),
  ],
};

/** [rule, recipe, the problems' locs and types in order] for recipes refused whole. */
const REFUSED: [string, unknown, [string[], string][]][] = [
  ["a body that is not an object", [], [[["body"], "dict_type"]]],
  ["steps are required", {}, [[["body", "steps"], "missing"]]],
  ["steps are a list", { steps: {} }, [[["body", "steps"], "list_type"]]],
  ["at least 1 step", { steps: [] }, [[["body", "steps"], "too_short"]]],
  [
    `at most ${MAX_RECIPE_STEPS} steps`,
    { steps: Array.from({ length: MAX_RECIPE_STEPS + 1 }, (_, i) => sum(`s${i}`, ["1"])) },
    [[["body", "steps"], "too_long"]],
  ],
  [
    "nothing but steps",
    { steps: [sum("a", ["1"])], dryRun: true },
    [[["body", "dryRun"], "extra_forbidden"]],
  ],
  ["a step is an object", { steps: ["math/sum"] }, [[["body", "steps", "0"], "dict_type"]]],
  [
    "a step has id, op and args only",
    { steps: [{ ...sum("a", ["1"]), next: "b" }] },
    [[["body", "steps", "0", "next"], "extra_forbidden"]],
  ],
  [
    "a step has an id",
    { steps: [{ op: "math/sum", args: { numbers: ["1"] } }] },
    [[["body", "steps", "0", "id"], "missing"]],
  ],
  [
    "an id is a string",
    { steps: [{ ...sum("a", ["1"]), id: 7 }] },
    [[["body", "steps", "0", "id"], "string_type"]],
  ],
  ...["1a", "a b", "a.b", "", "a".repeat(65)].map((id): [string, unknown, [string[], string][]] => [
    `an id matches the pattern: '${id.slice(0, 8)}'`,
    { steps: [sum(id, ["1"])] },
    [[["body", "steps", "0", "id"], "string_pattern_mismatch"]],
  ]),
  [
    "ids are unique",
    { steps: [sum("a", ["1"]), sum("a", ["2"])] },
    [[["body", "steps", "1", "id"], "value_error"]],
  ],
  [
    "a step has an op",
    { steps: [{ id: "a", args: {} }] },
    [[["body", "steps", "0", "op"], "missing"]],
  ],
  [
    "the op is a known operation",
    { steps: [step("a", "math/divide", { a: "1" })] },
    [[["body", "steps", "0", "op"], "value_error"]],
  ],
  [
    "args are an object",
    { steps: [{ id: "a", op: "math/sum", args: ["1"] }] },
    [[["body", "steps", "0", "args"], "dict_type"]],
  ],
  [
    "args are the operation's parameters",
    { steps: [step("a", "math/sum", { numbers: ["1"], precision: 3 })] },
    [[["body", "steps", "0", "args", "precision"], "extra_forbidden"]],
  ],
  [
    "each step's literal arguments are valid (the contract's loc)",
    { steps: [sum("a", ["1"]), step("b", "math/nth-root", { number: "x", degree: 2 })] },
    [[["body", "steps", "1", "args", "number"], "float_parsing"]],
  ],
  [
    "a step has at most 100 arguments",
    {
      steps: [
        step(
          "a",
          "math/sum",
          Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`p${i}`, 1])),
        ),
      ],
    },
    [[["body", "steps", "0", "args"], "value_error"]],
  ],
  [
    "a required literal argument is missing",
    { steps: [step("a", "math/nth-root", { number: "8" })] },
    [[["body", "steps", "0", "args", "degree"], "missing"]],
  ],
  [
    "a step with references still has its literal arguments checked",
    {
      steps: [sum("a", ["8"]), step("b", "math/nth-root", { number: ref("a.decimal"), degree: 0 })],
    },
    [[["body", "steps", "1", "args", "degree"], "greater_than_equal"]],
  ],
  [
    "a reference names an earlier step, not a later one",
    {
      steps: [step("a", "math/nth-root", { number: ref("b.decimal"), degree: 2 }), sum("b", ["1"])],
    },
    [[["body", "steps", "0", "args", "number", "$ref"], "value_error"]],
  ],
  [
    "a reference does not name its own step",
    { steps: [step("a", "math/nth-root", { number: ref("a.decimal"), degree: 2 })] },
    [[["body", "steps", "0", "args", "number", "$ref"], "value_error"]],
  ],
  [
    "a reference names a step that exists",
    {
      steps: [sum("a", ["1"]), step("b", "math/nth-root", { number: ref("z.decimal"), degree: 2 })],
    },
    [[["body", "steps", "1", "args", "number", "$ref"], "value_error"]],
  ],
  ...["a", "a.", "a..decimal", ".decimal"].map((path): [string, unknown, [string[], string][]] => [
    `a reference is <stepId>.<path>: '${path}'`,
    { steps: [sum("a", ["1"]), step("b", "math/nth-root", { number: ref(path), degree: 2 })] },
    [[["body", "steps", "1", "args", "number", "$ref"], "value_error"]],
  ]),
  [
    "a reference is a string",
    { steps: [sum("a", ["1"]), step("b", "math/nth-root", { number: { $ref: 1 }, degree: 2 })] },
    [[["body", "steps", "1", "args", "number", "$ref"], "string_type"]],
  ],
  [
    "a reference has nothing beside $ref",
    {
      steps: [
        sum("a", ["1"]),
        step("b", "math/nth-root", { number: { $ref: "a.decimal", x: 1 }, degree: 2 }),
      ],
    },
    [[["body", "steps", "1", "args", "number"], "value_error"]],
  ],
  [
    "a list item's reference is checked too",
    { steps: [sum("a", ["1"]), sum("b", ["1", ref("c.decimal")])] },
    [[["body", "steps", "1", "args", "numbers", "1", "$ref"], "value_error"]],
  ],
  [
    "every problem of the recipe at once",
    {
      steps: [
        sum("a", ["x", "1", "y"]),
        step("a", "math/nope"),
        step("c", "math/nth-root", { number: ref("d.decimal") }),
      ],
      extra: 1,
    },
    [
      [["body", "extra"], "extra_forbidden"],
      [["body", "steps", "0", "args", "numbers", "0"], "float_parsing"],
      [["body", "steps", "0", "args", "numbers", "2"], "float_parsing"],
      [["body", "steps", "1", "id"], "value_error"],
      [["body", "steps", "1", "op"], "value_error"],
      [["body", "steps", "2", "args", "number", "$ref"], "value_error"],
    ],
  ],
  [
    "the literal steps together stay within one request's budget",
    { steps: [costlyFizzbuzz("a"), costlyFizzbuzz("b")] },
    [[["body", "steps"], "value_error"]],
  ],
  [
    "the literal steps together send at most 10,000 list items",
    {
      steps: [
        sum(
          "a",
          Array.from({ length: 6000 }, () => "1"),
        ),
        sum(
          "b",
          Array.from({ length: 6000 }, () => "1"),
        ),
      ],
    },
    [[["body", "steps"], "value_error"]],
  ],
];

describe("a recipe is checked whole before anything runs", () => {
  it.each(REFUSED)("%s: 422 with every problem", (_rule, body, expected) => {
    const { status, body: answered } = answer(body);
    expect(status).toBe(422);
    const detail = answered.detail as { loc: string[]; type: string; msg: string }[];
    expect(detail.map((problem) => [problem.loc, problem.type])).toEqual(expected);
    for (const problem of detail) expect(problem.msg).toEqual(expect.any(String));
  });

  it("runs nothing of a refused recipe", () => {
    let ran = 0;
    const counting: typeof execute = (operation, input, problems) => {
      ran++;
      return execute(operation, input, problems);
    };
    const check = checkRecipe(
      book,
      { steps: [sum("a", ["1"]), sum("a", ["2"])] },
      { source: "body" },
    );
    expect(check.recipe).toBeUndefined();
    const ok = checkRecipe(book, CONTRACT, { source: "body" });
    runRecipe(book, ok.recipe as never, counting, () => {});
    expect(ran).toBe(3);
  });

  it("takes 20 steps", () => {
    const steps = Array.from({ length: MAX_RECIPE_STEPS }, (_, i) =>
      i === 0 ? sum("s0", ["1"]) : sum(`s${i}`, [ref(`s${i - 1}.decimal`), "1"]),
    );
    const { status, body } = answer({ steps });
    expect(status).toBe(200);
    const last = (body.steps as Json[])[MAX_RECIPE_STEPS - 1];
    expect(last).toMatchObject({ status: 200, output: { decimal: "20" } });
  });

  it("takes 64-character ids and steps without args", () => {
    const id = `a${"-".repeat(62)}Z`;
    const { status, body } = answer({
      steps: [
        { id, op: "fun/would-you-rather" },
        step("b", "crypto/checksum/md5", { text: ref(`${id}.id`) }),
      ],
    });
    expect(status).toBe(200);
    expect((body.steps as Json[]).map((s) => s.status)).toEqual([200, 200]);
  });
});

/** [rule, recipe, each step's status, and what the answer must hold]. */
const RAN: [string, unknown, number[], Json][] = [
  [
    "the contract example",
    CONTRACT,
    [200, 200, 200],
    {
      steps: [
        { id: "total", op: "math/sum", status: 200, output: { decimal: "1", count: 3 } },
        { id: "root", op: "math/nth-root", status: 200, output: { decimal: "1", isExact: true } },
        { id: "digest", op: "crypto/checksum/md5", status: 200, output: { digest: md5("1") } },
      ],
    },
  ],
  [
    "a decimal passes digit for digit",
    {
      steps: [
        step("a", "math/subtract", { a: EXACT, b: "0" }),
        step("b", "math/subtract", { a: ref("a.decimal"), b: "0" }),
        step("c", "crypto/checksum/md5", { text: ref("b.decimal") }),
      ],
    },
    [200, 200, 200],
    {
      steps: [
        { output: { decimal: EXACT } },
        { output: { decimal: EXACT } },
        { output: { digest: md5(EXACT) } },
      ],
    },
  ],
  [
    "decimals may be JSON numbers",
    { steps: [sum("a", [0.1, 0.2]), step("b", "math/subtract", { a: 1, b: ref("a.result") })] },
    [200, 200],
    { steps: [{ output: { decimal: "0.3" } }, { output: { decimal: "0.7" } }] },
  ],
  [
    "a path reaches list items (fb.items.2)",
    {
      steps: [
        step("fb", "misc/fizzbuzz", { end: 15 }),
        step("h", "crypto/checksum/md5", { text: ref("fb.items.2") }),
      ],
    },
    [200, 200],
    { steps: [{}, { output: { digest: md5("Fizz") } }] },
  ],
  [
    "a reference may be a list item, and a list may be referenced whole",
    {
      steps: [
        step("net", "ip/supernet", { networks: ["192.168.0.0/24", "192.168.1.0/24"] }),
        step("again", "ip/supernet", { networks: ref("net.networks") }),
        step("wider", "ip/supernet", { networks: [ref("net.supernet"), "192.168.4.0/24"] }),
        step("fb", "misc/fizzbuzz", { end: 4 }),
        sum("s", [ref("fb.items.0"), ref("fb.items.1"), ref("fb.items.3")]),
      ],
    },
    [200, 200, 200, 200, 200],
    {
      steps: [
        { output: { supernet: "192.168.0.0/23" } },
        { output: { supernet: "192.168.0.0/23" } },
        { output: { supernet: "192.168.0.0/21" } },
        {},
        { output: { decimal: "7" } },
      ],
    },
  ],
  [
    "integers and booleans pass as themselves",
    {
      steps: [
        step("fb", "misc/fizzbuzz", { start: 5, end: 9 }),
        step("n", "math/nth-root", { number: "1024", degree: ref("fb.count") }),
        step("leap", "datetime/is-leap-year", { year: 2024 }),
        step("b", "math/is-between", {
          number: "1",
          lower: "1",
          upper: "2",
          inclusive: ref("leap.isLeapYear"),
        }),
      ],
    },
    [200, 200, 200, 200],
    {
      steps: [{}, { output: { decimal: "4", isExact: true } }, {}, { output: { isBetween: true } }],
    },
  ],
  [
    "an invalid input once resolved is a 422 for that step, located in the body",
    {
      steps: [step("fb", "misc/fizzbuzz", { end: 3 }), sum("s", ref("fb.items"))],
    },
    [200, 422],
    {
      steps: [
        {},
        {
          detail: [{ loc: ["body", "steps", "1", "args", "numbers", "2"], type: "float_parsing" }],
        },
      ],
    },
  ],
  ...["fb.nothing", "fb.items.3", "fb.items.01", "fb.items.-1", "fb.count.x"].map(
    (path): [string, unknown, number[], Json] => [
      `a reference to a missing field is a 422 for that step: ${path}`,
      {
        steps: [
          step("fb", "misc/fizzbuzz", { end: 3 }),
          step("h", "crypto/checksum/md5", { text: ref(path) }),
        ],
      },
      [200, 422],
      {
        steps: [
          {},
          { detail: [{ loc: ["body", "steps", "1", "args", "text"], type: "value_error" }] },
        ],
      },
    ],
  ),
  [
    "a step referring to a failed step is 424 and not run; the others still run",
    {
      steps: [
        step("root", "math/nth-root", { number: "-4", degree: 2 }),
        step("h", "crypto/checksum/md5", { text: ref("root.decimal") }),
        step("hh", "crypto/checksum/md5", { text: ref("h.digest") }),
        sum("free", ["1", "2"]),
      ],
    },
    [422, 424, 424, 200],
    {
      steps: [
        { detail: [{ loc: ["body", "steps", "0", "args", "number"] }] },
        { detail: expect.stringContaining("'root'") },
        { detail: expect.stringContaining("'h'") },
        { output: { decimal: "3" } },
      ],
    },
  ],
  [
    "an operation's 404 is the step's, and its dependents are 424",
    {
      steps: [
        step("q", "fun/would-you-rather", { id: "nope-999" }),
        step("h", "crypto/checksum/md5", { text: ref("q.question") }),
      ],
    },
    [404, 424],
    { steps: [{ detail: expect.any(String) }, {}] },
  ],
  [
    "references re-check the budget: a step that would pass it is a 422",
    {
      steps: [
        costlyFizzbuzz("a"),
        costlyFizzbuzz("b", ref("a.end")),
        step("c", "crypto/checksum/md5", { text: ref("b.items.0") }),
        step("d", "crypto/checksum/md5", { text: ref("a.items.0") }),
      ],
    },
    [200, 422, 424, 200],
    {
      steps: [
        {},
        {
          detail: [
            {
              loc: ["body", "steps", "1", "args"],
              type: "value_error",
              msg: expect.stringContaining("the answer would take"),
            },
          ],
        },
        {},
        {},
      ],
    },
  ],
  [
    "references re-check the list items a recipe sends",
    {
      steps: [
        step("fb", "misc/fizzbuzz", { end: 6000, rules: ["100000:x"] }),
        sum("a", ref("fb.items")),
        sum("b", ref("fb.items")),
      ],
    },
    [200, 200, 422],
    {
      steps: [
        {},
        { output: { count: 6000 } },
        { detail: [{ msg: expect.stringContaining("list items") }] },
      ],
    },
  ],
];

describe("a recipe runs step by step", () => {
  it.each(RAN)("%s", (_rule, body, statuses, expected) => {
    const { status, body: answered } = answer(body);
    expect(status, JSON.stringify(answered).slice(0, 500)).toBe(200);
    expect((answered.steps as Json[]).map((s) => s.status)).toEqual(statuses);
    expect(answered).toMatchObject(expected);
  });

  it("answers one entry per step, in order, with id and op", () => {
    const { body } = answer(CONTRACT);
    expect((body.steps as Json[]).map((s) => [s.id, s.op])).toEqual(
      CONTRACT.steps.map((s) => [s.id, s.op]),
    );
  });

  it("a step runs exactly as the runner runs its operation", async () => {
    const operations = await loadOperations();
    for (const operation of operations) {
      const [example] = operation.examples;
      if (!example) continue;
      const op = `${operation.area}/${operation.name}`;
      const { body } = answer({ steps: [step("only", op, example.input)] });
      expect((body.steps as Json[])[0], op).toEqual({
        id: "only",
        op,
        status: 200,
        output: execute(operation, example.input),
      });
    }
  });
});

describe("?dryRun=true", () => {
  it("prices the recipe, a unit per step, without running it", () => {
    expect(answer(CONTRACT, true)).toEqual({
      status: 200,
      body: {
        units: 3,
        steps: [
          { id: "total", op: "math/sum", units: 1 },
          { id: "root", op: "math/nth-root", units: 1 },
          { id: "digest", op: "crypto/checksum/md5", units: 1 },
        ],
      },
    });
  });
});

describe("a list passed whole", () => {
  it("stays the earlier step's own, whatever a later handler does with its input", async () => {
    const { defineOperation } = await import("../kit/define.js");
    const { list } = await import("../kit/params.js");
    const { z } = await import("zod");
    const reverse = defineOperation({
      area: "test",
      name: "reverse",
      summary: "Reverses a list in place",
      description: "A fixture whose handler changes its own input.",
      input: z.object({ items: list(z.string(), { min: 1, max: 10 }) }),
      output: z.object({ items: z.array(z.string()) }),
      examples: [],
      handler: ({ items }) => ({ items: items.reverse() }),
    });
    const operations = [...(await loadOperations()), reverse];
    const own = recipeBook(operations);
    const body = {
      steps: [
        step("fb", "misc/fizzbuzz", { end: 3 }),
        step("r", "test/reverse", { items: ref("fb.items") }),
      ],
    };
    const { recipe } = checkRecipe(own, body, { source: "body" });
    const { answer } = runRecipe(own, recipe as never, execute, () => {});
    expect(answer.steps.map((s) => (s.output as { items: string[] }).items)).toEqual([
      ["1", "2", "Fizz"],
      ["Fizz", "2", "1"],
    ]);
  });
});
