import { describe, expect, it } from "vitest";
import { execute, NotFoundError } from "../../src/core/runner.js";
import { itAnswersItsExamples, problemsOf } from "../_testing.js";
import { CATEGORIES, QUESTIONS } from "./_questions.js";
import wouldYouRather from "./would-you-rather.js";

interface Answer {
  id: string;
  question: string;
  optionA: string;
  optionB: string;
  category: string;
  total: number;
}

const run = (input: Record<string, unknown>) => execute(wouldYouRather, input) as Answer;

/** The problems of a refused request, each as `{ loc, type }`. */
const refusal = (input: Record<string, unknown>) =>
  problemsOf(wouldYouRather, input).map(({ loc, type }) => ({ loc, type }));

const sentence = (optionA: string, optionB: string) => `Would you rather ${optionA} or ${optionB}?`;

const countIn = (category: string) => QUESTIONS.filter((q) => q.category === category).length;

/** Content words of a question, for spotting near-duplicates. */
const STOP_WORDS = new Set(
  "a an the of to in on at for with your you be have and or by every all".split(" "),
);
const contentWords = (text: string) =>
  new Set((text.toLowerCase().match(/[a-z0-9']+/g) ?? []).filter((w) => !STOP_WORDS.has(w)));

describe("fun/would-you-rather: the dataset", () => {
  it("holds at least 150 questions in at least 6 categories, each category well stocked", () => {
    expect(QUESTIONS.length).toBeGreaterThanOrEqual(150);
    expect(CATEGORIES.length).toBeGreaterThanOrEqual(6);
    for (const category of CATEGORIES) expect(countIn(category)).toBeGreaterThanOrEqual(10);
  });

  it("lists its categories sorted, each a single lowercase word (safe as a GraphQL enum value)", () => {
    expect([...CATEGORIES]).toEqual([...CATEGORIES].sort());
    for (const category of CATEGORIES) expect(category).toMatch(/^[a-z]+$/);
  });

  it("gives every question a unique id of the form <category>-<three digits>", () => {
    const ids = QUESTIONS.map((q) => q.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const q of QUESTIONS) expect(q.id).toMatch(/^[a-z]+-[0-9]{3}$/);
  });

  it("accepts every id through the input schema", () => {
    for (const q of QUESTIONS)
      expect(wouldYouRather.input.safeParse({ id: q.id }).success).toBe(true);
  });

  it("writes options to read on from “Would you rather”: trimmed, lowercase first, no end punctuation", () => {
    for (const q of QUESTIONS) {
      for (const option of [q.optionA, q.optionB]) {
        expect(option, q.id).toBe(option.trim());
        expect(option, q.id).toMatch(/^[a-z0-9]/);
        expect(option, q.id).not.toMatch(/[.,;:!?]$/);
        expect(option, q.id).not.toMatch(/\s{2}/);
        expect(option.length, q.id).toBeLessThanOrEqual(120);
      }
    }
  });

  it("never offers the same option twice, within a question or across the dataset", () => {
    const seen = new Map<string, string>();
    for (const q of QUESTIONS) {
      expect(q.optionA.toLowerCase(), q.id).not.toBe(q.optionB.toLowerCase());
      for (const option of [q.optionA, q.optionB]) {
        const key = option.toLowerCase();
        expect(seen.get(key), `${q.id}: "${option}"`).toBeUndefined();
        seen.set(key, q.id);
      }
    }
  });

  it("has no two questions with the same pair of options, in either order", () => {
    const pairs = QUESTIONS.map((q) =>
      [q.optionA, q.optionB]
        .map((o) => o.toLowerCase())
        .sort()
        .join("|"),
    );
    expect(new Set(pairs).size).toBe(pairs.length);
  });

  it("has no near-duplicate questions (content words overlap below 50 %)", () => {
    const words = QUESTIONS.map((q) => contentWords(`${q.optionA} ${q.optionB}`));
    for (let i = 0; i < words.length; i++) {
      for (let j = i + 1; j < words.length; j++) {
        const a = words[i] ?? new Set();
        const b = words[j] ?? new Set();
        const shared = [...a].filter((w) => b.has(w)).length;
        const overlap = shared / (a.size + b.size - shared);
        expect(overlap, `${QUESTIONS[i]?.id} vs ${QUESTIONS[j]?.id}`).toBeLessThan(0.5);
      }
    }
  });

  it("builds every question as one sentence ending with a question mark", () => {
    for (const q of QUESTIONS) {
      const answer = run({ id: q.id });
      expect(answer.question).toBe(sentence(q.optionA, q.optionB));
      expect(answer.question).toMatch(/^Would you rather \S.* or \S.*\?$/);
      expect(answer.question.endsWith("?")).toBe(true);
      expect(answer.question.endsWith("??")).toBe(false);
    }
  });
});

describe("fun/would-you-rather: ids are stable across releases", () => {
  // Renumbering or rewording a released question breaks clients that kept its id.
  it.each([
    ["food-001", "food", "give up cheese forever", "give up chocolate forever"],
    ["food-020", "food", "grow all your own vegetables", "catch all your own fish"],
    ["travel-008", "travel", "see the northern lights", "see a total solar eclipse"],
    ["superpowers-001", "superpowers", "be able to fly", "be able to turn invisible"],
    ["technology-019", "technology", "teach a robot to paint", "teach a robot to tell jokes"],
    ["work-016", "work", "switch careers every five years", "keep the same career for life"],
    ["nature-007", "nature", "hear birdsong every morning", "see a rainbow every afternoon"],
    ["everyday-006", "everyday", "be a morning person", "be a night owl"],
    [
      "hypothetical-003",
      "hypothetical",
      "meet your ten-year-old self",
      "meet your eighty-year-old self",
    ],
    [
      "sports-008",
      "sports",
      "play basketball against a team of kangaroos",
      "play soccer against a team of penguins",
    ],
    ["music-014", "music", "play the bagpipes", "play the harp"],
  ])("%s is still “%s: %s / %s”", (id, category, optionA, optionB) => {
    expect(run({ id })).toEqual({
      id,
      question: sentence(optionA, optionB),
      optionA,
      optionB,
      category,
      total: 1,
    });
  });
});

describe("fun/would-you-rather: by id", () => {
  it("finds every question by its id, with total 1", () => {
    for (const q of QUESTIONS) {
      expect(run({ id: q.id })).toEqual({
        ...q,
        question: sentence(q.optionA, q.optionB),
        total: 1,
      });
    }
  });

  it("accepts a category that matches the question's own", () => {
    expect(run({ id: "music-005", category: "music" }).optionA).toBe("learn the piano");
  });

  it.each(["food-999", "cooking-001", "food", "x", "a".repeat(32)])(
    "answers NotFoundError for the well-formed but unknown id %j",
    (id) => {
      expect(() => run({ id })).toThrow(NotFoundError);
    },
  );

  it("names the unknown id in the NotFoundError", () => {
    expect(() => run({ id: "food-999" })).toThrow("no question has the id 'food-999'");
  });

  it.each([
    ["", "string_too_short"],
    ["a".repeat(33), "string_too_long"],
    ["Food-001", "value_error"],
    ["food 001", "value_error"],
    ["food--001", "value_error"],
    ["-food-001", "value_error"],
    ["food-001-", "value_error"],
    ["food_001", "value_error"],
  ])("refuses the malformed id %j with one %s problem at id", (id, type) => {
    expect(refusal({ id })).toEqual([{ loc: ["id"], type }]);
  });

  it("refuses an id from another category with value_error at id", () => {
    expect(refusal({ id: "food-001", category: "travel" })).toEqual([
      { loc: ["id"], type: "value_error" },
    ]);
  });

  it("refuses id and seed together with value_error at seed", () => {
    expect(refusal({ id: "food-001", seed: 1 })).toEqual([{ loc: ["seed"], type: "value_error" }]);
  });

  it("reports an unknown id as not found even with a category", () => {
    expect(() => run({ id: "food-999", category: "travel" })).toThrow(NotFoundError);
  });
});

describe("fun/would-you-rather: by seed", () => {
  it("follows SplitMix64 (published vector: seed 0 mixes to 0xe220a8397b1dcdaf)", () => {
    const index = Number(0xe220a8397b1dcdafn % BigInt(QUESTIONS.length));
    expect(run({ seed: 0 }).id).toBe(QUESTIONS[index]?.id);
  });

  it.each([
    [0, undefined],
    [42, "superpowers"],
    [-1, "music"],
    [2 ** 32, "food"],
    [Number.MAX_SAFE_INTEGER, undefined],
    [Number.MIN_SAFE_INTEGER, "sports"],
  ])("gives the same question every time for seed %s, category %s", (seed, category) => {
    const input = category === undefined ? { seed } : { seed, category };
    const first = run(input);
    for (let i = 0; i < 5; i++) expect(run(input)).toEqual(first);
  });

  it("spreads 1,000 consecutive seeds over nearly all questions, none picked too often", () => {
    const counts = new Map<string, number>();
    for (let seed = 0; seed < 1000; seed++) {
      const { id } = run({ seed });
      counts.set(id, (counts.get(id) ?? 0) + 1);
    }
    expect(counts.size).toBeGreaterThanOrEqual(Math.floor(QUESTIONS.length * 0.9));
    expect(Math.max(...counts.values())).toBeLessThanOrEqual(20);
  });

  it("reaches every question of a category within 300 seeds", () => {
    for (const category of CATEGORIES) {
      const ids = new Set<string>();
      for (let seed = 0; seed < 300; seed++) ids.add(run({ seed, category }).id);
      expect(ids.size, category).toBe(countIn(category));
    }
  });

  it("uses all 64 bits: seeds 2^32 apart, or of opposite sign, are unrelated", () => {
    const seeds = Array.from({ length: 40 }, (_, i) => i + 1);
    const same = (other: (seed: number) => number) =>
      seeds.filter((seed) => run({ seed }).id === run({ seed: other(seed) }).id).length;
    expect(same((seed) => seed + 2 ** 32)).toBeLessThan(5);
    expect(same((seed) => -seed)).toBeLessThan(5);
    expect(same((seed) => seed + 2 ** 52)).toBeLessThan(5);
  });

  it.each([
    [Number.MAX_SAFE_INTEGER + 1, "less_than_equal"],
    [Number.MIN_SAFE_INTEGER - 1, "greater_than_equal"],
    [1.5, "int_parsing"],
    ["12abc", "int_parsing"],
  ])("refuses the seed %j with %s", (seed, type) => {
    // Distinct problems only: the kit's integer() currently reports a safe-range bound twice.
    const distinct = new Set(refusal({ seed }).map((problem) => JSON.stringify(problem)));
    expect([...distinct]).toEqual([JSON.stringify({ loc: ["seed"], type })]);
  });
});

describe("fun/would-you-rather: by category", () => {
  it.each(CATEGORIES.map((category) => [category]))(
    "draws only %s questions, and says how many it drew from",
    (category) => {
      for (let seed = 0; seed < 50; seed++) {
        const answer = run({ seed, category });
        expect(answer.category).toBe(category);
        expect(answer.id.startsWith(`${category}-`)).toBe(true);
        expect(answer.total).toBe(countIn(category));
      }
    },
  );

  it.each(["cooking", "Food", "FOOD", "", "food "])(
    "refuses the category %j with enum",
    (category) => {
      expect(refusal({ category })).toEqual([{ loc: ["category"], type: "enum" }]);
    },
  );

  it("reports every bad parameter at once", () => {
    expect(refusal({ category: "cooking", id: "Food-1", seed: 0.5 })).toEqual([
      { loc: ["category"], type: "enum" },
      { loc: ["id"], type: "value_error" },
      { loc: ["seed"], type: "int_parsing" },
    ]);
  });
});

describe("fun/would-you-rather: at random", () => {
  const byId = new Map(QUESTIONS.map((q) => [q.id, q]));

  it("answers a real question from the whole collection", () => {
    const ids = new Set<string>();
    for (let i = 0; i < 200; i++) {
      const answer = run({});
      const q = byId.get(answer.id);
      expect(q).toBeDefined();
      expect(answer).toEqual({
        ...q,
        question: sentence(answer.optionA, answer.optionB),
        total: QUESTIONS.length,
      });
      ids.add(answer.id);
    }
    // 200 uniform draws over 200 questions hit about 126 distinct ones; 30 is a safe floor.
    expect(ids.size).toBeGreaterThan(30);
  });

  it("stays inside the requested category", () => {
    for (let i = 0; i < 50; i++) {
      const answer = run({ category: "nature" });
      expect(answer.category).toBe("nature");
      expect(byId.get(answer.id)?.optionB).toBe(answer.optionB);
    }
  });
});

describe("fun/would-you-rather: examples", () => {
  itAnswersItsExamples(wouldYouRather);
});
