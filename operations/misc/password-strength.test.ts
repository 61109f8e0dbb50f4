import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { endianness, tmpdir } from "node:os";
import path from "node:path";
import { isDeepStrictEqual } from "node:util";
import type { OptionsType, ZxcvbnResult } from "@zxcvbn-ts/core";
import { afterAll, describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { createZxcvbn, packWordIndex, WordIndex, wordListStamp } from "./_zxcvbn.js";
import passwordStrength, { zxcvbn } from "./password-strength.js";

/** The longest password of words, dates, keyboard runs and l33t found costliest to match. */
const WORST = "Tr0ub4dor&3correcthorse1987qwertyP@ssw0rd!zxcvbnm2024-12-31l33t";

/** Passwords of each kind zxcvbn tells apart, from a fixed seed. */
function samplePasswords(lists: Record<string, readonly (string | number)[]>): string[] {
  let seed = 12345;
  const random = () => {
    seed = (seed * 1103515245 + 12345) & 0x7fffffff;
    return seed / 0x7fffffff;
  };
  const pick = <T>(items: readonly T[]) => items[Math.floor(random() * items.length)] as T;
  const all = Object.values(lists);
  const word = () => {
    const list = pick(all);
    return String(list[Math.floor(random() ** 3 * list.length)]);
  };
  const l33t = (w: string) =>
    w.replace(/[aeiosl]/g, (c) =>
      random() < 0.6
        ? (({ a: "@", e: "3", i: "1", o: "0", s: "$", l: "1" } as Record<string, string>)[c] ?? c)
        : c,
    );
  const chars = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!@#$%^&*-_ ";
  const noise = (n: number) => Array.from({ length: n }, () => pick([...chars])).join("");
  const date = () =>
    `${1950 + Math.floor(random() * 80)}${pick(["-", "/", ""])}${1 + Math.floor(random() * 12)}${pick(["-", "/", ""])}${1 + Math.floor(random() * 28)}`;
  const keys = () => pick(["qwerty", "asdfgh", "zxcvbnm", "1qaz2wsx", "123456", "!@#$%^"]);
  const kinds = [
    () => word(),
    () => l33t(word()),
    () => `${word()}${pick(["", " ", "-", "1"])}${word()}`,
    () => Array.from({ length: 4 }, word).join(pick([" ", "-", ""])),
    () => `${l33t(word() + word())}${Math.floor(random() * 100)}`,
    () => noise(8 + Math.floor(random() * 30)),
    () => `${word()}${date()}`,
    () => `${keys()}${word()}`,
    () => `${[...word()].reverse().join("")}${Math.floor(random() * 1000)}`,
    () => pick(["onetwothree", "mondaytuesday", "firstsecondthird"]) + word(),
    () => `${l33t(word())}${date()}${keys()}${word()}${noise(4)}${word()}`,
  ];
  const passwords = [WORST, "", "p@ssw0rd", "1987123119871231", "🔑🔑🔑", "x".repeat(64)];
  for (let k = 0; k < 12; k += 1) for (const kind of kinds) passwords.push(kind().slice(0, 64));
  return passwords;
}

const OPTIONS = { l33tMaxSubstitutions: 4, maxLength: 64 };
const scratch = mkdtempSync(path.join(tmpdir(), "ucs-words-"));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** zxcvbn over `bytes` (by default `index`'s, stamped as the build stamps them) read from a file. */
function fromFile(index: WordIndex, bytes = index.toBytes(wordListStamp())) {
  const file = path.join(scratch, `words-${Math.random().toString(36).slice(2)}.bin.br`);
  writeFileSync(file, packWordIndex(bytes));
  return createZxcvbn(OPTIONS, file);
}

/** Cached modules of the word lists (the packages' index.cjs, the lists, their decompressor). */
const LIST_MODULE =
  /@zxcvbn-ts[\\/](language-(en|common)[\\/]dist[\\/](index|commonWords|firstnames|lastnames|wikipedia|diceware|passwords)|dictionary-compression)/;

interface Answer {
  score: number;
  guessesLog10: number;
  feedback: { warning: string | null; suggestions: string[] };
  length: number;
}
const run = (password: string) => execute(passwordStrength, { password }) as Answer;

describe("misc/password-strength", () => {
  itAnswersItsExamples(passwordStrength);

  it.each([
    ["", 0],
    ["password", 0],
    ["qwerty123", 0],
    ["Tr0ub4dor&3", 4],
    ["correcthorsebatterystaple", 4],
  ])("scores %j as %i", (password, score) => {
    expect(run(password).score).toBe(score);
  });

  it("never echoes the password", () => {
    const password = "zebra-Quokka-17-violin";
    const answer = JSON.stringify(run(password));
    expect(answer).not.toContain("zebra");
    expect(answer).not.toContain("Quokka");
    expect(answer).not.toContain("violin");
  });

  it("answers the same twice", () => {
    expect(run("S3cur1ty!2024")).toEqual(run("S3cur1ty!2024"));
  });

  it("counts characters, not UTF-16 units", () => {
    expect(run("🔑🔑🔑").length).toBe(3);
  });

  it("accepts 64 characters and refuses 65, without echoing the password", () => {
    expect(run("x".repeat(64)).length).toBe(64);
    const problems = problemsOf(passwordStrength, { password: "y".repeat(65) });
    expect(locTypes(problems)).toEqual([[["password"], "string_too_long"]]);
    expect(JSON.stringify(problems)).not.toContain("yyy");
  });

  it("drops the word lists' modules once indexed, so their strings can be collected", () => {
    zxcvbn();
    const { cache } = createRequire(import.meta.url);
    // Its requirer's `children` (the core's first parent's) would keep it alive as well.
    const held = Object.values(cache).flatMap((module) => [
      module?.id ?? "",
      ...(module?.children ?? []).map((child) => child.id),
      ...(module?.parent?.children ?? []).map((child) => child.id),
    ]);
    expect(
      held.filter((path) => /@zxcvbn-ts[\\/](language-|dictionary-compression)/.test(path)),
    ).toEqual([]);
  });

  it("compares at most 40,000 characters to match the worst password against every list", () => {
    const { index, checker } = zxcvbn();
    expect(index.size).toBeGreaterThan(180_000);
    index.probes = 0;
    checker.check(WORST);
    // Built-in: up to 23 substrings sliced per start, each hashed in 20 tables, per variant.
    expect(index.probes).toBeLessThan(40_000);
  });

  it.each(["lists", "file"] as const)(
    "scores as zxcvbn-ts does with the same lists and options (index from %s)",
    (from) => {
      const require = createRequire(import.meta.url);
      const { ZxcvbnFactory } = require("@zxcvbn-ts/core") as {
        ZxcvbnFactory: new (options: OptionsType) => { check(password: string): ZxcvbnResult };
      };
      const common = require("@zxcvbn-ts/language-common");
      const en = require("@zxcvbn-ts/language-en");
      const dictionary = { ...common.dictionary, ...en.dictionary };
      const upstream = new ZxcvbnFactory({
        translations: en.translations,
        graphs: common.adjacencyGraphs,
        dictionary,
        l33tMaxSubstitutions: 4,
        maxLength: 64,
      });
      const { checker, indexFrom } = from === "lists" ? zxcvbn() : fromFile(zxcvbn().index);
      expect(indexFrom).toBe(from);
      const passwords = samplePasswords(dictionary);
      expect(passwords.length).toBeGreaterThan(130);
      const bare = ({ calcTime: _, ...result }: ZxcvbnResult) => result;
      for (const password of passwords) {
        expect(bare(checker.check(password)), password).toEqual(bare(upstream.check(password)));
      }
    },
  );

  it("takes the whole request budget, so no GraphQL document runs two checks", () => {
    const cost = passwordStrength.cost?.({ password: "a" });
    expect(cost?.work).toBe(20_000_000);
  });
});

describe("the prebuilt word index", () => {
  it("reads back from its bytes the same words, lists and ranks", () => {
    const { index } = zxcvbn();
    const read = WordIndex.fromBytes(index.toBytes(wordListStamp()), wordListStamp());
    expect(read?.size).toBe(index.size);
    const differ: number[] = [];
    for (let w = 0; w < index.size; w += 1) {
      if (!isDeepStrictEqual(read?.word(w), index.word(w))) differ.push(w);
    }
    expect(differ).toEqual([]);
    // Code units kept as they are: astral characters, lone surrogates, odd lengths.
    const odd = new WordIndex({ a: ["🔑", "\ud800", "ab", "x"], b: ["x", "é"] });
    const back = WordIndex.fromBytes(odd.toBytes("s"), "s");
    expect([0, 1, 2, 3, 4].map((w) => back?.word(w))).toEqual(
      [0, 1, 2, 3, 4].map((w) => odd.word(w)),
    );
    expect(back?.match("xé🔑")).toEqual(odd.match("xé🔑"));
  });

  it("is stamped with the @zxcvbn-ts versions, and refused under another stamp or cut short", () => {
    const require = createRequire(import.meta.url);
    for (const name of ["core", "language-common", "language-en"]) {
      const { version } = require(`@zxcvbn-ts/${name}/package.json`);
      expect(wordListStamp()).toContain(`@zxcvbn-ts/${name}@${version}`);
    }
    const odd = new WordIndex({ a: ["x", "y"] });
    const bytes = odd.toBytes("@zxcvbn-ts/language-en@4.1.1");
    expect(WordIndex.fromBytes(bytes, "@zxcvbn-ts/language-en@4.1.1")?.size).toBe(2);
    expect(WordIndex.fromBytes(bytes, "@zxcvbn-ts/language-en@4.1.2")).toBeUndefined();
    expect(
      WordIndex.fromBytes(bytes.subarray(0, bytes.length - 1), "@zxcvbn-ts/language-en@4.1.1"),
    ).toBeUndefined();
    expect(WordIndex.fromBytes(new Uint8Array(2), "")).toBeUndefined();
    // A header whose sizes add up to the length but are not sizes (-2 words).
    const json = Buffer.from(
      JSON.stringify({
        format: 1,
        stamp: `s ${endianness().toLowerCase()}`,
        names: [],
        text: 0,
        words: -2,
        entries: 4,
      }),
    );
    const forged = new Uint8Array(((4 + json.length + 3) & ~3) + 12);
    new DataView(forged.buffer).setUint32(0, json.length, true);
    forged.set(json, 4);
    expect(WordIndex.fromBytes(forged, "s")).toBeUndefined();
  });

  it("builds the index from the lists when the file is stale or missing", () => {
    const { index } = zxcvbn();
    const stale = fromFile(index, index.toBytes(`${wordListStamp()} (an older build)`));
    expect(stale.indexFrom).toBe("lists");
    expect(stale.checker.check("p@ssw0rd").guesses).toBe(9);
    expect(createZxcvbn(OPTIONS, path.join(scratch, "absent.bin")).indexFrom).toBe("lists");
    // Not Brotli (an index written whole, or a file cut short): built from the lists too.
    const raw = path.join(scratch, "raw.bin");
    writeFileSync(raw, index.toBytes(wordListStamp()));
    expect(createZxcvbn(OPTIONS, raw).indexFrom).toBe("lists");
    const packed = packWordIndex(index.toBytes(wordListStamp()));
    writeFileSync(raw, packed.subarray(0, packed.length >> 1));
    expect(createZxcvbn(OPTIONS, raw).indexFrom).toBe("lists");
  });

  it("loads none of the word lists when it reads the file", () => {
    const { index } = zxcvbn();
    const { cache } = createRequire(import.meta.url);
    const lists = () => Object.keys(cache).filter((key) => LIST_MODULE.test(key));
    for (const key of lists()) delete cache[key];
    const read = fromFile(index);
    expect(read.indexFrom).toBe("file");
    expect(lists()).toEqual([]);
    expect(read.checker.check("correct horse battery staple").score).toBe(4);
  });
});
