/**
 * The worst legal recipes (API.md §8) against the built service started as `npm start`
 * starts it (dist/, its node flags and malloc settings, NODE_ENV=production), as the
 * envelope test measures it: 20 steps of each operation at its
 * costliest legal input, every operation's costliest input in one recipe, and recipes
 * whose references try to multiply one costly output. Each is refused (400, 422) or
 * answered within one request's budget: an answer no larger than the budget's bytes, the
 * server's CPU bounded per recipe; and the process's peak memory stays within 48 MB of
 * what REST's costliest answer takes.
 */

import { spawnSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { REQUEST_BUDGET } from "../../src/kit/cost.js";
import type { AnyOperation } from "../../src/kit/define.js";
import { loadOperations } from "../../src/registry/loader.js";
import {
  cpuMs,
  freePort,
  HOST,
  httpGet,
  Proc,
  ROOT,
  residentMb,
  START,
  sleep,
  stopAll,
} from "./helpers.js";

const KEY = "recipes-process-key-0123456789abcdef";
/**
 * What the recipes may add to the peak resident memory the same process reached answering
 * REST's costliest FizzBuzz (3.3 MB) three times. The envelope's own figure (150 MB,
 * test/process/envelope.test.ts) grows with the registry's size, not with recipes. Without
 * the recipe's budget, one recipe here answers 66 MB.
 */
const RECIPES_RSS_MB = 48;
/** Server CPU one recipe may take, refused or answered: the budget's ~20 ms, with room for a 2-core machine shared with other work. */
const CPU_PER_RECIPE_MS = 250;
/** An answer's bytes: the budget's, plus each step's entry around its output. */
const MAX_ANSWER_BYTES = REQUEST_BUDGET.bytes + 20 * 1024;

afterAll(stopAll);

const RULES = Array.from({ length: 10 }, (_, i) => `1:${String.fromCharCode(65 + i).repeat(32)}`);

/**
 * The costliest legal input per operation (as bench/lib/fairness.ts measures them: list
 * limits filled, widest digits, longest text); the others send their first example, as none
 * of them grows with its input.
 */
const COSTLIEST: Record<string, Record<string, unknown>> = {
  "math/sum": { numbers: Array.from({ length: 10_000 }, (_, i) => `${(i * 7919) % 100_000}.125`) },
  "stats/product": { numbers: [...Array(3333).fill(["1.5", "-2", "0.5"]).flat(), "1"] },
  "stats/range": { numbers: Array.from({ length: 10_000 }, (_, i) => `${i}.5e${i % 100}`) },
  "math/nth-root": { number: "2", degree: 1000, precision: 100 },
  "ip/supernet": {
    networks: Array.from({ length: 1000 }, (_, i) => `2001:db8:${i.toString(16)}::/48`),
  },
  "text/sentiment": { text: "does not ".repeat(1111) },
  "misc/fizzbuzz": { start: 1, end: 10_000, rules: RULES },
  "crypto/checksum/md5": { text: "😀".repeat(100_000) },
  "hash/hmac-md5": { text: "😀".repeat(100_000), key: "k".repeat(1000) },
};

const opOf = (operation: AnyOperation) => `${operation.area}/${operation.name}`;
const costliest = (operation: AnyOperation) =>
  COSTLIEST[opOf(operation)] ?? operation.examples[0]?.input ?? {};

/** The largest body the service reads (1 MiB); past it, 413. */
const BODY_LIMIT = 1024 * 1024;

/**
 * `body` made legal: while its JSON is over the body limit, every list and text of the
 * steps' literal arguments is cut in proportion. A recipe that cannot be sent is not one
 * a client can ask for.
 */
function fitted(body: { steps: { args: Record<string, unknown> }[] }) {
  let size = Buffer.byteLength(JSON.stringify(body));
  while (size > BODY_LIMIT) {
    const keep = (BODY_LIMIT / size) * 0.95;
    for (const step of body.steps) {
      const args: Record<string, unknown> = {};
      for (const [name, value] of Object.entries(step.args)) {
        args[name] =
          Array.isArray(value) || typeof value === "string"
            ? value.slice(0, Math.max(1, Math.floor(value.length * keep)))
            : value;
      }
      step.args = args;
    }
    size = Buffer.byteLength(JSON.stringify(body));
  }
  return body;
}

async function postRecipe(port: number, body: unknown) {
  const response = await fetch(`http://${HOST}:${port}/v1/recipes`, {
    method: "POST",
    headers: { "x-api-key": KEY, "content-type": "application/json" },
    body: JSON.stringify(body),
  });
  const bytes = Buffer.from(await response.arrayBuffer());
  return { status: response.status, bytes };
}

/** The built service, as `npm start` runs it, once GET /health answers. */
async function startBuilt(): Promise<Proc & { port: number }> {
  // What `npm start` runs is dist/: built from this tree first (prestart does the same).
  const build = spawnSync("npm", ["run", "build"], { cwd: ROOT, encoding: "utf8" });
  if (build.status !== 0) throw new Error(`npm run build failed\n${build.stdout}${build.stderr}`);
  const port = await freePort();
  const env: Record<string, string> = { ...START.env };
  for (const name of ["PATH", "HOME", "TMPDIR", "LANG"]) {
    const value = process.env[name];
    if (value !== undefined) env[name] = value;
  }
  const server = new Proc(
    `built:${port}`,
    process.execPath,
    [...START.nodeFlags, "dist/src/server.js"],
    {
      ...env,
      HOST,
      PORT: String(port),
      NODE_ENV: "production",
      API_KEYS: KEY,
      LOG_LEVEL: "warn",
      DATA_DIR: mkdtempSync(join(tmpdir(), "ucs-recipes-data-")),
    },
  );
  const deadline = Date.now() + 20_000;
  while (Date.now() < deadline && server.running) {
    const health = await httpGet(port, "/health", { timeoutMs: 1000 }).catch(() => undefined);
    if (health?.status === 200) return Object.assign(server, { port });
    await sleep(50);
  }
  throw new Error(`the built service did not start\n${server.output()}`);
}

it("refuses or answers the worst legal recipes within one request's budget, in its memory envelope", async () => {
  const operations = await loadOperations();
  expect(START.nodeFlags).toContain("--max-old-space-size=128");
  const server = await startBuilt();
  // The same process's peak over REST's costliest answer, for comparison.
  const fizzbuzz = `/v1/misc/fizzbuzz?start=1&end=10000&rules=${RULES.join(",")}`;
  for (let i = 0; i < 3; i++) {
    expect((await httpGet(server.port, fizzbuzz, { headers: { "x-api-key": KEY } })).status).toBe(
      200,
    );
  }
  const rest = residentMb(server.pid);
  console.log(`[recipes] after REST's costliest FizzBuzz: peak RSS ${rest.peak.toFixed(0)} MB`);
  const ref = (path: string) => ({ $ref: path });
  const recipes: [string, unknown][] = [
    ...operations.map((operation): [string, unknown] => [
      `20 × ${opOf(operation)} at its costliest`,
      fitted({
        steps: Array.from({ length: 20 }, (_, i) => ({
          id: `s${i}`,
          op: opOf(operation),
          args: costliest(operation),
        })),
      }),
    ]),
    [
      "every operation at its costliest, cycled to 20 steps",
      fitted({
        steps: Array.from({ length: 20 }, (_, i) => {
          const operation = operations[i % operations.length] as AnyOperation;
          return { id: `s${i}`, op: opOf(operation), args: costliest(operation) };
        }),
      }),
    ],
    [
      "one costliest FizzBuzz, its items hashed by 19 steps",
      {
        steps: [
          { id: "fb", op: "misc/fizzbuzz", args: COSTLIEST["misc/fizzbuzz"] },
          ...Array.from({ length: 19 }, (_, i) => ({
            id: `h${i}`,
            op: "hash/hmac-md5",
            args: { text: ref(`fb.items.${i * 500}`), key: ref(`fb.items.${i}`) },
          })),
        ],
      },
    ],
    [
      "one costliest FizzBuzz, then 19 more whose end is a reference",
      {
        steps: [
          { id: "s0", op: "misc/fizzbuzz", args: COSTLIEST["misc/fizzbuzz"] },
          ...Array.from({ length: 19 }, (_, i) => ({
            id: `s${i + 1}`,
            op: "misc/fizzbuzz",
            args: { start: 1, end: ref(`s${i}.end`), rules: RULES },
          })),
        ],
      },
    ],
    [
      "1000 IPv6 networks passed on 19 times",
      {
        steps: [
          { id: "s0", op: "ip/supernet", args: COSTLIEST["ip/supernet"] },
          ...Array.from({ length: 19 }, (_, i) => ({
            id: `s${i + 1}`,
            op: "ip/supernet",
            args: { networks: ref(`s${i}.networks`) },
          })),
        ],
      },
    ],
    [
      "a 5,001-digit product hashed by 19 steps",
      {
        steps: [
          { id: "s0", op: "stats/product", args: { numbers: ["9e4999", "9"] } },
          ...Array.from({ length: 19 }, (_, i) => ({
            id: `s${i + 1}`,
            op: "crypto/checksum/md5",
            args: { text: ref("s0.decimal") },
          })),
        ],
      },
    ],
  ];
  const seen: string[] = [];
  for (const [name, body] of recipes) {
    // Twice: the first also compiles the paths it takes.
    for (let round = 0; round < 2; round++) {
      const before = cpuMs(server.pid);
      const { status, bytes } = await postRecipe(server.port, body);
      const cpu = cpuMs(server.pid) - before;
      if (round === 1) {
        const statuses =
          status === 200
            ? (JSON.parse(bytes.toString()).steps as { status: number }[])
                .map((s) => s.status)
                .join(",")
            : "";
        seen.push(
          `${name}: ${status} ${statuses}, ${bytes.length} bytes, ${cpu} ms CPU, peak ${residentMb(server.pid).peak.toFixed(0)} MB`,
        );
      }
      expect([200, 400, 422], `${name}: ${bytes.toString().slice(0, 300)}`).toContain(status);
      expect(bytes.length, name).toBeLessThanOrEqual(MAX_ANSWER_BYTES);
      if (round === 1) expect(cpu, name).toBeLessThan(CPU_PER_RECIPE_MS);
      if (status === 200) {
        const steps = JSON.parse(bytes.toString()).steps as { status: number }[];
        expect(steps.length, name).toBe((body as { steps: unknown[] }).steps.length);
      }
    }
  }
  console.log(`[recipes] ${seen.join("\n[recipes] ")}`);
  const memory = residentMb(server.pid);
  console.log(`[recipes] peak RSS ${memory.peak.toFixed(0)} MB, now ${memory.now.toFixed(0)} MB`);
  expect(memory.peak - rest.peak).toBeLessThan(RECIPES_RSS_MB);
  expect(server.running, server.output()).toBe(true);
  const still = await httpGet(server.port, "/v1/math/sum?numbers=1,2", {
    headers: { "x-api-key": KEY },
  });
  expect(still.status).toBe(200);
}, 240_000);
