import { randomInt } from "node:crypto";
import { CalculationError, defineOperation, integer, NotFoundError, z } from "#kit";
import { CATEGORIES, QUESTIONS, type Question } from "./_questions.js";

/** Ids are lowercase slugs such as `food-001`; anything else cannot name a question. */
const ID_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
const MAX_ID_LENGTH = 32;

const QUESTIONS_BY_ID = new Map(QUESTIONS.map((question) => [question.id, question]));

const QUESTIONS_BY_CATEGORY = new Map(
  CATEGORIES.map((category) => [
    category,
    QUESTIONS.filter((question) => question.category === category),
  ]),
);

/**
 * Maps any safe integer to a well-mixed 64-bit value with SplitMix64, so neighbouring
 * seeds (1, 2, 3…) land on unrelated questions. BigInt keeps the 64-bit arithmetic exact;
 * a negative seed is taken as its two's-complement bit pattern, so every safe integer has
 * its own starting point.
 *
 * @example
 * mixSeed(0); // 16294208416658607535n
 */
function mixSeed(seed: number): bigint {
  let state = BigInt.asUintN(64, BigInt.asUintN(64, BigInt(seed)) + 0x9e3779b97f4a7c15n);
  state = BigInt.asUintN(64, (state ^ (state >> 30n)) * 0xbf58476d1ce4e5b9n);
  state = BigInt.asUintN(64, (state ^ (state >> 27n)) * 0x94d049bb133111ebn);
  return state ^ (state >> 31n);
}

/**
 * The position a seed picks among `count` candidates. The modulo bias of a 64-bit value
 * over a few hundred candidates is below 1e-16, far too small to matter.
 *
 * @example
 * seededIndex(42, 20); // always the same number in 0..19
 */
function seededIndex(seed: number, count: number): number {
  return Number(mixSeed(seed) % BigInt(count));
}

/**
 * The one impure step of this operation: a uniformly random position when no seed is
 * given. `crypto.randomInt` draws without modulo bias.
 *
 * @example
 * randomIndex(200); // some number in 0..199
 */
function randomIndex(count: number): number {
  return randomInt(count);
}

function present(question: Question, total: number) {
  return {
    id: question.id,
    question: `Would you rather ${question.optionA} or ${question.optionB}?`,
    optionA: question.optionA,
    optionB: question.optionB,
    category: question.category,
    total,
  };
}

const categoryList = CATEGORIES.map((category) => `\`${category}\``).join(", ");

export default defineOperation({
  area: "fun",
  name: "would-you-rather",
  summary: 'A "Would you rather" question, random, seeded or by id',
  description:
    `Answers one "Would you rather …?" question from the service's own collection of ` +
    `${QUESTIONS.length} family-friendly questions in ${CATEGORIES.length} categories ` +
    `(${categoryList}).\n\n` +
    "- With no parameter, the question is drawn uniformly at random from the whole collection; " +
    "with `category`, from that category only.\n" +
    "- With `seed` (any integer from −(2^53 − 1) to 2^53 − 1) the choice is deterministic: the " +
    "same `seed` and `category` always give the same question. A seed picks a position in the " +
    "selection, so the answer for a seed may change when questions are added in a later " +
    "release; use `id` to refer to one question for good.\n" +
    "- With `id` (e.g. `food-001`) that exact question is returned. Ids never change and are " +
    "never reused. An unknown id is answered with 404. `id` may be combined with a matching " +
    "`category`; a question outside the given category is refused with 422 (`value_error` at " +
    "`id`). `id` and `seed` together are refused with 422 (`value_error` at `seed`), since an " +
    "id already names a single question.\n" +
    "- An unknown `category` is refused with 422 (`enum`).\n\n" +
    "The response carries the full sentence in `question`, both options on their own (lowercase, " +
    "without punctuation, ready to show as buttons), the question's `category`, and `total`: how " +
    "many questions the choice was made among (the whole collection, the category, or 1 for an " +
    "id).",
  input: z.object({
    category: z
      .enum(CATEGORIES as [string, ...string[]])
      .describe("Only draw from this category.")
      .optional(),
    id: z
      .string()
      .min(1, { abort: true })
      .max(MAX_ID_LENGTH, { abort: true })
      .regex(ID_PATTERN, {
        message:
          "an id is lowercase letters and digits in hyphen-separated groups, like 'food-001'",
      })
      .describe("Return the question with this id, e.g. `food-001`.")
      .optional(),
    seed: integer({
      description:
        "Choose deterministically: the same seed and category always give the same question.",
    }).optional(),
  }),
  output: z.object({
    id: z.string().describe("The question's stable id, e.g. `food-001`."),
    question: z.string().describe('The full sentence: "Would you rather … or …?".'),
    optionA: z.string().describe("The first option, as it reads after “Would you rather”."),
    optionB: z.string().describe("The second option, as it reads after “or”."),
    category: z.string().describe(`The question's category: one of ${categoryList}.`),
    total: z
      .int()
      .describe("How many questions the choice was made among (1 when asked for by id)."),
  }),
  notFound: "No question has the given `id`.",
  nondeterministic: "Without `seed` or `id`, the question is drawn at random on every call.",
  examples: [
    {
      title: "A question by its id",
      input: { id: "food-001" },
      output: {
        id: "food-001",
        question: "Would you rather give up cheese forever or give up chocolate forever?",
        optionA: "give up cheese forever",
        optionB: "give up chocolate forever",
        category: "food",
        total: 1,
      },
    },
    {
      title: "The same seed and category always give the same question",
      input: { seed: 42, category: "superpowers" },
      output: {
        id: "superpowers-014",
        question: "Would you rather have the eyesight of an eagle or have the hearing of an owl?",
        optionA: "have the eyesight of an eagle",
        optionB: "have the hearing of an owl",
        category: "superpowers",
        total: 20,
      },
    },
    {
      title: "Negative seeds work too",
      input: { seed: -1, category: "music" },
      output: {
        id: "music-017",
        question:
          "Would you rather be a famous singer who always wears a mask or be a famous singer everyone recognizes on the street?",
        optionA: "be a famous singer who always wears a mask",
        optionB: "be a famous singer everyone recognizes on the street",
        category: "music",
        total: 20,
      },
    },
  ],
  handler: ({ category, id, seed }) => {
    if (id !== undefined) {
      if (seed !== undefined) {
        throw new CalculationError("give either id or seed, not both", ["seed"]);
      }
      const question = QUESTIONS_BY_ID.get(id);
      if (question === undefined) throw new NotFoundError(`no question has the id '${id}'`);
      if (category !== undefined && question.category !== category) {
        throw new CalculationError(
          `question '${id}' is in category '${question.category}', not '${category}'`,
          ["id"],
        );
      }
      return present(question, 1);
    }
    const candidates =
      category === undefined ? QUESTIONS : (QUESTIONS_BY_CATEGORY.get(category) ?? []);
    const index =
      seed === undefined ? randomIndex(candidates.length) : seededIndex(seed, candidates.length);
    const question = candidates[index];
    // Unreachable: the schema admits only categories that have questions.
    if (question === undefined) throw new Error(`no question at position ${index}`);
    return present(question, candidates.length);
  },
});
