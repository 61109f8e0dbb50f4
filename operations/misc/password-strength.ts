import { defineOperation, REQUEST_BUDGET, text, z } from "#kit";
import { createZxcvbn, type Zxcvbn } from "./_zxcvbn.js";

/** Longest password scored: zxcvbn's matching grows faster than quadratically with length. */
const MAX_LENGTH = 64;

/**
 * At most 4 l33t substitutions tried per password. zxcvbn-ts's default (100) took 2 s for a
 * 32-character random password on the shared 2-core machine; 4 scores the usual l33t
 * passwords (`p@ssw0rd`, `Tr0ub4dor&3`) as the default does.
 */
const L33T_MAX_SUBSTITUTIONS = 4;

let built: Zxcvbn | undefined;

/**
 * zxcvbn with its English and common dictionaries, made on first use: it reads the word
 * index the build wrote beside it (or, without that file, builds the index from the lists,
 * a few hundred milliseconds and tens of megabytes of peak memory), which a process that
 * never scores a password should not pay at start.
 */
export function zxcvbn(): Zxcvbn {
  built ??= createZxcvbn({ l33tMaxSubstitutions: L33T_MAX_SUBSTITUTIONS, maxLength: MAX_LENGTH });
  return built;
}

const SCENARIOS = [
  "onlineThrottlingXPerHour",
  "onlineNoThrottlingXPerSecond",
  "offlineSlowHashingXPerSecond",
  "offlineFastHashingXPerSecond",
] as const;

const crackTime = z.object({
  seconds: z.number().describe("Estimated seconds to guess the password."),
  display: z.string().describe("The same, in words (`3 hours`, `centuries`)."),
});

export default defineOperation({
  area: "misc",
  name: "password-strength",
  summary: "Password strength estimate (zxcvbn)",
  description: [
    "Estimates how hard `password` is to guess with zxcvbn (the `@zxcvbn-ts` port, English",
    "and common dictionaries): it finds the dictionary words, names, keyboard patterns,",
    "repeats, sequences, dates and l33t substitutions the password is made of and counts the",
    "guesses an attacker trying those first would need.",
    "",
    "`score` is 0 (too guessable) to 4 (very unguessable): 0 below 10^3 guesses, 1 below",
    "10^6, 2 below 10^8, 3 below 10^10, 4 from there. `guesses` and `guessesLog10` give the",
    "count; `crackTimes` the time it would take in four scenarios (online with throttling,",
    "100 an hour; online without, 10 a second; offline against a slow hash, 10^4 a second;",
    "offline against a fast hash, 10^10 a second); `feedback` a warning and suggestions in",
    "English. The estimate is deterministic: the same password always scores the same.",
    "",
    "The estimate is exactly `@zxcvbn-ts/core` 4.2.0's with those dictionaries, except that",
    `at most ${L33T_MAX_SUBSTITUTIONS} l33t readings of a password are tried (zxcvbn-ts's default, 100, can`,
    "take seconds); misspellings (Levenshtein matching) are not matched, as by default.",
    "",
    `\`password\` may be empty and at most ${MAX_LENGTH} characters; longer ones are refused`,
    "with a 422 (zxcvbn's work grows faster than the square of the length). The",
    "password is never echoed in the answer, in an error, or in the service's request log,",
    "which records paths without their query string. Still, a password sent in a URL can be",
    "kept by proxies and browser history: prefer POST /graphql or MCP, and do not send",
    "passwords you use.",
  ].join("\n"),
  input: z.object({
    password: text({ max: MAX_LENGTH, description: "The password to rate (not echoed)." }),
  }),
  output: z.object({
    score: z.int().describe("0 (too guessable) to 4 (very unguessable)."),
    guesses: z.number().describe("Estimated guesses needed."),
    guessesLog10: z.number().describe("log10 of `guesses`."),
    crackTimes: z
      .object({
        onlineThrottlingXPerHour: crackTime,
        onlineNoThrottlingXPerSecond: crackTime,
        offlineSlowHashingXPerSecond: crackTime,
        offlineFastHashingXPerSecond: crackTime,
      })
      .describe("Time to guess in four attack scenarios."),
    feedback: z
      .object({
        warning: z.string().nullable().describe("What makes the password weak, or null."),
        suggestions: z.array(z.string()).describe("How to make it stronger."),
      })
      .describe("Advice, in English."),
    length: z.int().describe("The password's length in characters (code points)."),
  }),
  examples: [
    {
      title: "A common password with l33t substitutions",
      input: { password: "p@ssw0rd" },
      output: {
        score: 0,
        guesses: 9,
        guessesLog10: 0.9542425094393249,
        crackTimes: {
          onlineThrottlingXPerHour: { seconds: 324, display: "5 minutes" },
          onlineNoThrottlingXPerSecond: { seconds: 0.9, display: "less than a second" },
          offlineSlowHashingXPerSecond: { seconds: 0.0009, display: "less than a second" },
          offlineFastHashingXPerSecond: { seconds: 9e-10, display: "less than a second" },
        },
        feedback: {
          warning: "This is similar to a commonly used password.",
          suggestions: [
            "Add more words that are less common.",
            "Avoid predictable letter substitutions like '@' for 'a'.",
          ],
        },
        length: 8,
      },
    },
    {
      title: "A passphrase of four common words",
      input: { password: "correct horse battery staple" },
      output: {
        score: 4,
        guesses: 52732933120000000000,
        guessesLog10: 19.7220819284034,
        crackTimes: {
          onlineThrottlingXPerHour: { seconds: 1.89838559232e21, display: "centuries" },
          onlineNoThrottlingXPerSecond: { seconds: 5273293312000000000, display: "centuries" },
          offlineSlowHashingXPerSecond: { seconds: 5273293312000000, display: "centuries" },
          offlineFastHashingXPerSecond: { seconds: 5273293312, display: "centuries" },
        },
        feedback: { warning: null, suggestions: [] },
        length: 28,
      },
    },
  ],
  // A check of the costliest 64 characters found takes 3 to 7 ms of CPU on the shared 2-core
  // machine (the first also loads zxcvbn and reads the word index, about 0.2 s; 0.6 s where it
  // builds the index instead). The whole budget is still declared, so that a check never
  // shares a request with other work.
  cost: () => ({ work: REQUEST_BUDGET.work, bytes: 2048 }),
  handler: ({ password }) => {
    const result = zxcvbn().checker.check(password);
    const crackTimes = Object.fromEntries(
      SCENARIOS.map((scenario) => {
        const { seconds, display } = result.crackTimes[scenario];
        return [scenario, { seconds, display }];
      }),
    ) as Record<(typeof SCENARIOS)[number], { seconds: number; display: string }>;
    return {
      score: result.score,
      guesses: result.guesses,
      guessesLog10: result.guessesLog10,
      crackTimes,
      feedback: { warning: result.feedback.warning, suggestions: result.feedback.suggestions },
      length: [...password].length,
    };
  },
});
