/**
 * Timing (API.md §7, "no measurable difference in timing"): an unknown key, a revoked
 * key and a key of the right length with one character wrong take the same time to be
 * refused. Each class is one key value, tried again and again, as a client timing a key
 * would. Measured where the decision is made, the key checker over the static keys and
 * the managed-key directory (the rest of the 401 path is the same code for all three),
 * interleaved so that drift of the machine hits every class alike: 3,000 tries of each,
 * in 5 rounds; each class's median per round, then the median of those. Passes when every
 * two classes' medians differ by less than the spread between two halves of one class
 * (what the machine's noise alone makes) plus 10 %.
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, expect, it } from "vitest";
import { createKeyDirectory } from "../src/access/keys/directory.js";
import { openKeyStore, randomBase62 } from "../src/access/keys/store.js";
import { createKeyChecker, staticKeys } from "../src/access/keys.js";

const store = await openKeyStore({ dataDir: mkdtempSync(join(tmpdir(), "ucs-timing-")) });
afterAll(() => store.close());

const TRIES = 3000;
const ROUNDS = 5;

it("unknown, revoked and wrong-by-one keys are refused in the same time", async () => {
  const valid = await store.create({ name: "valid" });
  const revoked = await store.create({ name: "revoked" });
  for (let i = 0; i < 50; i++) await store.create({ name: `other-${i}` });
  await store.revoke(revoked.record.id);
  const directory = createKeyDirectory(store, { pollMs: 3_600_000 });
  await directory.start();
  const check = createKeyChecker([
    staticKeys(["static-key-0123456789abcdefghijklmnop"]),
    directory,
  ]);

  const last = valid.secret.at(-1) === "a" ? "b" : "a";
  // Each try gets a string of its own, flat, as Node makes a header value from its bytes.
  const fresh = (text: string) => Buffer.from(text, "latin1").toString("latin1");
  const wrong = `${valid.secret.slice(0, -1)}${last}`;
  // One value per class, probed again and again, as a client measuring a key would.
  const unknownKey = `ucs_${randomBase62(40)}`;
  const classes = {
    unknown: () => fresh(unknownKey),
    revoked: () => fresh(revoked.secret),
    wrongByOne: () => fresh(wrong),
  };
  const names = Object.keys(classes) as (keyof typeof classes)[];
  // Every class gives a refusal; the valid key passes (the test measures refusals).
  for (const name of names) expect(check(classes[name]()).ok).toBe(false);
  expect(check(valid.secret).ok).toBe(true);

  const perRound: Record<string, number[]> = { unknown: [], revoked: [], wrongByOne: [] };
  const halves: [number[], number[]] = [[], []];
  const median = (values: number[]) => {
    const sorted = [...values].sort((a, b) => a - b);
    return sorted[Math.floor(sorted.length / 2)] as number;
  };
  // Warm-up: the checker's code optimised before anything is measured.
  for (let i = 0; i < 20_000; i++) check(classes[names[i % 3] as keyof typeof classes]());
  for (let round = 0; round < ROUNDS; round++) {
    const samples: Record<string, number[]> = { unknown: [], revoked: [], wrongByOne: [] };
    for (let i = 0; i < TRIES * names.length; i++) {
      const name = names[i % names.length] as keyof typeof classes;
      const presented = classes[name]();
      const started = process.hrtime.bigint();
      check(presented);
      (samples[name] as number[]).push(Number(process.hrtime.bigint() - started));
    }
    for (const name of names) (perRound[name] as number[]).push(median(samples[name] as number[]));
    const unknown = samples.unknown as number[];
    halves[0].push(median(unknown.filter((_, i) => i % 2 === 0)));
    halves[1].push(median(unknown.filter((_, i) => i % 2 === 1)));
  }
  const medians = Object.fromEntries(
    names.map((name) => [name, median(perRound[name] as number[])]),
  );
  const noise = Math.abs(median(halves[0]) - median(halves[1]));
  const allowed = noise + 0.1 * Math.max(...Object.values(medians));
  const report = `medians (ns): ${JSON.stringify(medians)}, noise ${noise} ns, allowed ${Math.round(allowed)} ns`;
  console.log(`[key-timing] ${report}`);
  for (const a of names) {
    for (const b of names) {
      expect(Math.abs((medians[a] as number) - (medians[b] as number)), report).toBeLessThanOrEqual(
        allowed,
      );
    }
  }
  directory.close();
}, 60_000);
