import { createRequire } from "node:module";
import type { OptionsType, ZxcvbnResult } from "@zxcvbn-ts/core";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
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

  it("scores as zxcvbn-ts does with the same lists and options", () => {
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
    const { checker } = zxcvbn();
    const passwords = samplePasswords(dictionary);
    expect(passwords.length).toBeGreaterThan(130);
    const bare = ({ calcTime: _, ...result }: ZxcvbnResult) => result;
    for (const password of passwords) {
      expect(bare(checker.check(password)), password).toEqual(bare(upstream.check(password)));
    }
  });

  it("takes the whole request budget, so no GraphQL document runs two checks", () => {
    const cost = passwordStrength.cost?.({ password: "a" });
    expect(cost?.work).toBe(20_000_000);
  });
});
