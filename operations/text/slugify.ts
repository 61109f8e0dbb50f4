import { defineOperation, ITEM_WORK, integer, jsonBytes, text, z } from "#kit";

/** Longest text accepted, in characters (Unicode code points). */
const MAX_TEXT_CHARACTERS = 2_000;

/** Latin letters that Unicode decomposition leaves whole, spelled in ASCII. */
const LATIN_SPELLINGS: Record<string, string> = {
  ß: "ss",
  ẞ: "SS",
  æ: "ae",
  Æ: "AE",
  œ: "oe",
  Œ: "OE",
  ø: "o",
  Ø: "O",
  đ: "d",
  Đ: "D",
  ð: "d",
  Ð: "D",
  þ: "th",
  Þ: "TH",
  ł: "l",
  Ł: "L",
  ı: "i",
  ħ: "h",
  Ħ: "H",
  ŧ: "t",
  Ŧ: "T",
  ŋ: "ng",
  Ŋ: "NG",
};
const SPELLED = new RegExp(`[${Object.keys(LATIN_SPELLINGS).join("")}]`, "gu");
const MARKS = /\p{M}+/gu;
const NOT_ASCII_WORD = /[^A-Za-z0-9]+/g;
const NOT_WORD = /[^\p{L}\p{M}\p{N}]+/gu;

const SEPARATORS = ["-", "_", "."] as const;

function slugify(
  value: string,
  separator: string,
  ascii: boolean,
  lowercase: boolean,
  maxLength: number | undefined,
): string {
  let slug = value.normalize("NFKD");
  if (ascii) {
    slug = slug
      .replace(SPELLED, (letter) => LATIN_SPELLINGS[letter] ?? "")
      .replace(MARKS, "")
      .replace(NOT_ASCII_WORD, " ");
  } else {
    // Marks stay with their letters: composed again once the separators are in.
    slug = slug.replace(NOT_WORD, " ");
  }
  if (lowercase) slug = slug.toLowerCase();
  slug = slug.trim().split(" ").filter(Boolean).join(separator);
  if (!ascii) slug = slug.normalize("NFC");
  if (maxLength !== undefined) {
    const chars = [...slug];
    if (chars.length > maxLength) {
      // Cut at the last separator that keeps it within bounds, else mid-word.
      const cut = chars.slice(0, maxLength + 1).join("");
      const at = cut.lastIndexOf(separator);
      slug = at > 0 ? cut.slice(0, at) : chars.slice(0, maxLength).join("");
      if (slug.endsWith(separator)) slug = slug.slice(0, -separator.length);
    }
  }
  return slug;
}

export default defineOperation({
  area: "text",
  name: "slugify",
  summary: "Turn a title into a URL slug (`Héllo, Wörld!` → `hello-world`)",
  description: [
    "Makes a URL- and file-name-friendly slug of `text`: accents are removed (Unicode NFKD " +
      "decomposition, then combining marks dropped: `é` → `e`, `ﬁ` → `fi`), Latin letters without a " +
      "decomposition are spelled in ASCII (`ß` → `ss`, `æ` → `ae`, `ø` → `o`, `ł` → `l`, `þ` → `th`), " +
      "every run of other characters (spaces, punctuation, symbols, emoji) becomes one `separator` " +
      "(`-` by default, or `_` or `.`), and separators at either end are dropped.",
    "With `ascii=true` (default) letters of other scripts are dropped (`你好` gives an empty slug); " +
      "with `ascii=false` letters and digits of every script are kept (in NFC), and only accents that " +
      "are separate marks are kept too. `lowercase` (default true) lowercases the slug. `maxLength`, " +
      "when given, cuts the slug to at most that many characters, at a separator when there is one " +
      "within the limit. The slug may be empty. The text is at most 2,000 characters.",
  ].join("\n\n"),
  input: z.object({
    text: text({ max: MAX_TEXT_CHARACTERS, description: "The text to slugify." }),
    separator: z.enum(SEPARATORS).default("-").describe("What joins the words (default `-`)."),
    ascii: z.boolean().default(true).describe("Keep only ASCII letters and digits (default true)."),
    lowercase: z.boolean().default(true).describe("Lowercase the slug (default true)."),
    maxLength: integer({
      min: 1,
      max: MAX_TEXT_CHARACTERS,
      description: "Longest slug, in characters.",
    }).optional(),
  }),
  output: z.object({
    slug: z.string().describe("The slug; may be empty."),
    length: z.int().describe("The slug's length in characters."),
  }),
  examples: [
    {
      title: "Accents, punctuation and spaces",
      input: { text: "Héllo, Wörld! Ça va?" },
      output: { slug: "hello-world-ca-va", length: 17 },
    },
    {
      title: "Letters without a decomposition, with underscores",
      input: { text: "Straße & Smørrebrød", separator: "_" },
      output: { slug: "strasse_smorrebrod", length: 18 },
    },
    {
      title: "Other scripts kept, cut at a word",
      input: { text: "Привет, мир: hello world", ascii: false, maxLength: 15 },
      output: { slug: "привет-мир", length: 10 },
    },
  ],
  cost: ({ text: value }) => ({
    work: value.length * ITEM_WORK,
    // NFKD may spell one character as up to 18 (U+FDFA); the slug is within that.
    bytes: 18 * jsonBytes(value) + 256,
    loc: ["text"],
  }),
  handler: ({ text: value, separator, ascii, lowercase, maxLength }) => {
    const slug = slugify(value, separator, ascii, lowercase, maxLength);
    return { slug, length: [...slug].length };
  },
});
