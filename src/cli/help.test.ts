import { describe, expect, it } from "vitest";
import { z } from "zod";
import { defineOperation } from "../kit/define.js";
import { decimal, integer, list, text } from "../kit/params.js";
import { listing, operationHelp, usage } from "./help.js";

const signed = defineOperation({
  area: "hash",
  name: "sign/it",
  summary: "Signs a text",
  description: "A fixture with every kind of parameter, and one named key.",
  input: z.object({
    text: text({ min: 1, max: 10, description: "What to sign." }),
    key: text({ max: 5 }),
    rounds: integer({ min: 1 }).default(2),
    factors: list(decimal(), { min: 0, max: 3 }).optional(),
    encoding: z.enum(["hex", "base64"]).default("hex"),
  }),
  output: z.object({ digest: z.string() }),
  examples: [
    {
      title: "With spaces",
      input: { text: "a b", key: "it's", factors: ["1", "2"] },
      output: { digest: "x" },
    },
  ],
  handler: () => ({ digest: "x" }),
});
const bare = defineOperation({
  area: "misc",
  name: "now",
  summary: "Answers",
  description: "A fixture without parameters.",
  input: z.object({}),
  output: z.object({}),
  examples: [{ title: "Plain", input: {}, output: {} }],
  handler: () => ({}),
});

describe("operationHelp", () => {
  const help = operationHelp(signed);

  it.each([
    ["the summary on the first line", /^ucs hash sign\/it: Signs a text\n/],
    [
      "the usage, optional flags in brackets, the API key as --api-key when `key` is a parameter",
      "Usage: ucs hash sign/it --text <text> --key <text> [--rounds <integer>] [--factors <decimal…>] [--encoding <hex|base64>] [--json] [--url URL --api-key KEY]",
    ],
    ["bounds in characters and the description", "(required; 1 to 10 characters) What to sign."],
    ["an upper bound alone", "(required; at most 5 characters)"],
    ["a default and bounds", "(optional; default 2; 1 to 9007199254740991)"],
    [
      "list items and how to give them",
      "(optional; 0 to 3 items; repeat the flag or separate items with commas)",
    ],
    [
      "an example as a command, quoted for the shell",
      "--text 'a b' --key 'it'\\''s' --factors 1 --factors 2",
    ],
  ])("shows %s", (_case, expected) => {
    if (expected instanceof RegExp) expect(help).toMatch(expected);
    else expect(help).toContain(expected);
  });

  it("offers --key for the API key when no parameter is named key", () => {
    expect(operationHelp(bare)).toContain("Usage: ucs misc now [--json] [--url URL --key KEY]");
    expect(operationHelp(bare)).not.toContain("Parameters:");
  });
});

describe("listing and usage", () => {
  it("lists operations under their areas, names aligned", () => {
    expect(listing([signed, bare])).toBe(
      "hash\n  sign/it  Signs a text\n\nmisc\n  now      Answers\n",
    );
  });

  it("says how to list, run and get help, and what the exit codes mean", () => {
    expect(usage()).toMatch(/^Usage: ucs list\n/);
    expect(usage()).toContain("ucs <area> <name> --help");
    expect(usage()).toContain("Exit codes: 0 answer, 2 invalid input, 1 anything else.");
  });
});
