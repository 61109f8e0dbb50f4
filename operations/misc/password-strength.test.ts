import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import passwordStrength from "./password-strength.js";

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

  it("takes the whole request budget, so no GraphQL document runs two checks", () => {
    const cost = passwordStrength.cost?.({ password: "a" });
    expect(cost?.work).toBe(20_000_000);
  });
});
