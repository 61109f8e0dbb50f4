/**
 * Dev tooling shared by the scale test and `npm run bench:scale`: a folder of synthetic
 * operation modules, written as an operator writes them (`.ts`, the kit imported by the
 * package's name, parameters from the kit's builders, examples, an output schema), for
 * OPERATIONS_DIRS. Five shapes take turns so the documents are not 300 copies of one:
 * two decimals, a list of decimals (with a cost), a text with an enum, integers with a
 * boolean and a list answer, an enum with an optional decimal and a nested answer.
 */
import { mkdir, utimes, writeFile } from "node:fs/promises";
import path from "node:path";

/** Areas the modules are spread over, as an operator's catalogue would group them. */
export const SYNTHETIC_AREAS = [
  "acoustics",
  "chemistry",
  "energy",
  "geodesy",
  "logistics",
  "nutrition",
  "optics",
  "payroll",
  "retail",
  "weather",
] as const;

export interface SyntheticOperation {
  area: string;
  name: string;
  /** `<area>/<name>` */
  id: string;
  /** One example's input and its documented output, as the module declares them. */
  example: { input: Record<string, unknown>; output: unknown };
  /** Which of the five shapes it is (0–4). */
  shape: number;
}

const SHAPES = ["scale", "tally", "label", "steps", "convert"] as const;

/** The `index`th synthetic module's text and what it declares (index from 0). */
export function syntheticModule(index: number): { text: string; operation: SyntheticOperation } {
  const area = SYNTHETIC_AREAS[index % SYNTHETIC_AREAS.length] as string;
  const shape = index % SHAPES.length;
  const k = index + 2; // the module's own constant, so no two answer alike
  const name = `${SHAPES[shape]}-${String(index).padStart(3, "0")}`;
  const head = `area: "${area}",\n  name: "${name}",`;
  let body: string;
  let example: SyntheticOperation["example"];
  switch (shape) {
    case 0: {
      const value = 1.5 * k + 0.25;
      example = {
        input: { a: "1.5", b: "0.25" },
        output: { result: value, decimal: String(value) },
      };
      body = `import { arithmeticFields, arithmeticResult, decimal, defineOperation, z } from "utility-calculation-service/kit";

export default defineOperation({
  ${head}
  summary: "a × ${k} + b, exactly",
  description:
    "Scales \`a\` by the module's factor ${k} and adds \`b\`, in exact decimal arithmetic: " +
    "\`decimal\` is the exact value, \`result\` the nearest double.",
  input: z.object({
    a: decimal({ description: "The value to scale." }),
    b: decimal({ description: "The offset added after scaling." }),
  }),
  output: z.object({ ...arithmeticFields }),
  examples: [
    { title: "1.5 × ${k} + 0.25", input: ${JSON.stringify(example.input)}, output: ${JSON.stringify(example.output)} },
  ],
  handler: ({ a, b }) => arithmeticResult(a.times(${k}).plus(b)),
});
`;
      break;
    }
    case 1: {
      const value = 6 * k;
      example = {
        input: { numbers: ["1", "2", "3"] },
        output: { result: value, decimal: String(value), count: 3 },
      };
      body = `import { arithmeticFields, arithmeticResult, type Cost, decimal, defineOperation, digitSpan, type Exact, ITEM_WORK, list, z } from "utility-calculation-service/kit";

export default defineOperation({
  ${head}
  summary: "Weighted total of a list (weight ${k})",
  description: "The sum of the numbers times ${k}, exact, with how many numbers were added.",
  input: z.object({
    numbers: list(decimal(), { min: 1, max: 1000, description: "The numbers to add." }),
  }),
  output: z.object({ ...arithmeticFields, count: z.int().describe("How many numbers.") }),
  examples: [
    { title: "1, 2 and 3", input: ${JSON.stringify(example.input)}, output: ${JSON.stringify(example.output)} },
  ],
  cost: ({ numbers }): Cost => ({
    work: numbers.length * (ITEM_WORK + digitSpan(numbers)),
    bytes: 2 * (digitSpan(numbers) + 8) + 64,
    loc: ["numbers"],
  }),
  handler: ({ numbers }) => {
    const sum = numbers.reduce((total: Exact, n: Exact) => total.plus(n));
    return { ...arithmeticResult(sum.times(${k})), count: numbers.length };
  },
});
`;
      break;
    }
    case 2: {
      example = {
        input: { text: "Hello, World", style: "upper" },
        output: { label: `HELLO, WORLD #${k}`, codePoints: 12 },
      };
      body = `import { defineOperation, text, z } from "utility-calculation-service/kit";

export default defineOperation({
  ${head}
  summary: "A label in a chosen case, numbered ${k}",
  description: "The text in upper or lower case, followed by \` #${k}\`, with its length in code points.",
  input: z.object({
    text: text({ min: 1, max: 200, description: "The text of the label." }),
    style: z.enum(["upper", "lower"]).default("upper").describe("The case to write it in."),
  }),
  output: z.object({
    label: z.string().describe("The label."),
    codePoints: z.int().describe("Code points of the text."),
  }),
  examples: [
    { title: "Upper case", input: ${JSON.stringify(example.input)}, output: ${JSON.stringify(example.output)} },
  ],
  handler: ({ text, style }) => ({
    label: \`\${style === "upper" ? text.toUpperCase() : text.toLowerCase()} #${k}\`,
    codePoints: [...text].length,
  }),
});
`;
      break;
    }
    case 3: {
      const steps = [0, 1, 2, 3].map((i) => 10 + i * k);
      example = {
        input: { start: 10, count: 4, descending: false },
        output: { steps, last: steps[3] },
      };
      body = `import { type Cost, defineOperation, integer, ITEM_WORK, z } from "utility-calculation-service/kit";

export default defineOperation({
  ${head}
  summary: "Steps of ${k} from a start",
  description: "\`count\` values from \`start\` in steps of ${k}, up or down.",
  input: z.object({
    start: integer({ min: -1000000, max: 1000000, description: "The first value." }),
    count: integer({ min: 1, max: 100, description: "How many values." }),
    descending: z.boolean().default(false).describe("Step down instead of up."),
  }),
  output: z.object({
    steps: z.array(z.int()).describe("The values, in order."),
    last: z.int().describe("The last value."),
  }),
  examples: [
    { title: "Four steps up", input: ${JSON.stringify(example.input)}, output: ${JSON.stringify(example.output)} },
  ],
  cost: ({ count }): Cost => ({ work: count * ITEM_WORK, bytes: count * 12 + 32 }),
  handler: ({ start, count, descending }) => {
    const step = descending ? -${k} : ${k};
    const steps = Array.from({ length: count }, (_, i) => start + i * step);
    return { steps, last: steps[steps.length - 1] as number };
  },
});
`;
      break;
    }
    default: {
      const value = 2 * k;
      example = {
        input: { unit: "double", value: String(k) },
        output: { unit: "double", value: { decimal: String(value), result: value } },
      };
      body = `import { decimal, defineOperation, Exact, nearestDouble, toPlain, z } from "utility-calculation-service/kit";

export default defineOperation({
  ${head}
  summary: "${k} converted to a unit",
  description: "\`value\` (${k} when not given) as a single, a double or a half, exactly.",
  input: z.object({
    unit: z.enum(["single", "double", "half"]).describe("The unit to convert to."),
    value: decimal({ description: "The value to convert (${k} when not given)." }).optional(),
  }),
  output: z.object({
    unit: z.string().describe("The unit converted to."),
    value: z
      .object({ decimal: z.string(), result: z.number().nullable() })
      .describe("The converted value, exact and as the nearest double."),
  }),
  examples: [
    { title: "Doubled", input: ${JSON.stringify(example.input)}, output: ${JSON.stringify(example.output)} },
  ],
  handler: ({ unit, value }) => {
    const x = value ?? new Exact(${k});
    const converted = unit === "double" ? x.times(2) : unit === "half" ? x.div(2) : x.times(1);
    return { unit, value: { decimal: toPlain(converted), result: nearestDouble(converted) } };
  },
});
`;
    }
  }
  return { text: body, operation: { area, name, id: `${area}/${name}`, example, shape } };
}

/**
 * Writes `count` synthetic modules under `dir` (`<dir>/<area>/<name>.ts`), dated a minute
 * back so the loader trusts their imports at once; returns what they declare.
 */
export async function writeSyntheticOperations(
  dir: string,
  count: number,
): Promise<SyntheticOperation[]> {
  const longAgo = new Date(Date.now() - 60_000);
  const operations: SyntheticOperation[] = [];
  for (let index = 0; index < count; index++) {
    const { text, operation } = syntheticModule(index);
    const file = path.join(dir, operation.area, `${operation.name}.ts`);
    await mkdir(path.dirname(file), { recursive: true });
    await writeFile(file, text);
    await utimes(file, longAgo, longAgo);
    operations.push(operation);
  }
  return operations;
}
