import { defineOperation, text, z } from "#kit";

/** Room to say why a long address is refused; RFC 5321 allows 254 characters. */
const MAX_INPUT_LENGTH = 1024;
/** RFC 5321 section 4.5.3.1.1. */
const MAX_LOCAL_PART = 64;
/** RFC 5321 section 4.5.3.1.2. */
const MAX_DOMAIN = 255;
/** RFC 5321 section 4.5.3.1.3: a path of 256 octets, less its angle brackets. */
const MAX_ADDRESS = 254;
const MAX_LABEL = 63;

/** The WHATWG HTML "valid e-mail address" grammar, whole (HTML § 4.10.5.1.5). */
const WHATWG_EMAIL =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;
const LOCAL_CHARACTER = /[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]/;
const LABEL_CHARACTER = /[a-zA-Z0-9-]/;

const shown = (value: string, index: number) =>
  `'${String.fromCodePoint(value.codePointAt(index) ?? 0)}'`;

/** Why `address` is not a valid e-mail address, or `null` when it is. */
function problemOf(address: string): string | null {
  const at = address.indexOf("@");
  if (at === -1) return "there is no '@'";
  const second = address.indexOf("@", at + 1);
  if (second !== -1) {
    return `there is a second '@' at index ${second} (quoted local parts are not accepted)`;
  }
  const local = address.slice(0, at);
  const domain = address.slice(at + 1);
  if (local === "") return "the local part before the '@' is empty";
  for (let i = 0; i < local.length; i++) {
    if (!LOCAL_CHARACTER.test(local.charAt(i))) {
      return `the character ${shown(local, i)} at index ${i} is not allowed in the local part`;
    }
  }
  if (domain === "") return "the domain after the '@' is empty";
  let start = 0;
  for (const label of domain.split(".")) {
    const index = at + 1 + start;
    if (label === "") return `the domain has an empty label at index ${index}`;
    for (let i = 0; i < label.length; i++) {
      if (!LABEL_CHARACTER.test(label.charAt(i))) {
        return `the character ${shown(label, i)} at index ${index + i} is not allowed in a domain (letters, digits and hyphens; internationalised domains in their xn-- form)`;
      }
    }
    if (label.startsWith("-") || label.endsWith("-")) {
      return `the domain label '${label}' at index ${index} starts or ends with a hyphen`;
    }
    if (label.length > MAX_LABEL) {
      return `the domain label at index ${index} has ${label.length} characters; at most ${MAX_LABEL}`;
    }
    start += label.length + 1;
  }
  if (local.length > MAX_LOCAL_PART) {
    return `the local part has ${local.length} characters; RFC 5321 allows ${MAX_LOCAL_PART}`;
  }
  if (domain.length > MAX_DOMAIN) {
    return `the domain has ${domain.length} characters; RFC 5321 allows ${MAX_DOMAIN}`;
  }
  if (address.length > MAX_ADDRESS) {
    return `the address has ${address.length} characters; RFC 5321 allows ${MAX_ADDRESS}`;
  }
  // The checks above are the grammar, spelled out to say where; this keeps them honest.
  return WHATWG_EMAIL.test(address) ? null : "it does not match the WHATWG grammar";
}

export default defineOperation({
  area: "validate",
  name: "email",
  summary: "Check an e-mail address's syntax (WHATWG HTML grammar, RFC 5321 lengths)",
  description: [
    "Checks that `email` is a *valid e-mail address* as the WHATWG HTML standard defines it " +
      "(the grammar of `<input type=email>`, § 4.10.5.1.5), within the length limits of " +
      "RFC 5321 section 4.5.3.1: a local part of at most 64 characters, a domain of at most " +
      "255 and an address of at most 254. It answers `valid`, the first `reason` it fails " +
      "with the index where it goes wrong (`null` when valid), and the `localPart` and " +
      "`domain` split at the `@`.",
    "The grammar: a local part of letters, digits and ``.!#$%&'*+/=?^_`{|}~-``, an `@`, and " +
      "a domain of dot-separated labels of letters, digits and hyphens, each 1 to 63 long and " +
      "neither starting nor ending with a hyphen. Like browsers, and unlike RFC 5322, it " +
      'refuses quoted local parts (`"john doe"@example.com`), comments, address literals ' +
      "(`user@[192.0.2.1]`) and non-ASCII characters (send an internationalised domain in its " +
      "`xn--` form), and it accepts dots anywhere in the local part (`.a..b.@example.com`) and " +
      "a domain without a dot (`user@localhost`). Surrounding spaces are not trimmed.",
    "Syntax only: nothing is looked up, so a valid address may have no mail server or " +
      `mailbox. At most ${MAX_INPUT_LENGTH} characters.`,
  ].join("\n\n"),
  input: z.object({
    email: text({ min: 1, max: MAX_INPUT_LENGTH, description: "The e-mail address to check." }),
  }),
  output: z.object({
    valid: z.boolean().describe("Whether the address is valid."),
    reason: z.string().nullable().describe("The first rule it breaks; `null` when valid."),
    localPart: z.string().nullable().describe("What comes before the `@`, when there is one."),
    domain: z.string().nullable().describe("What comes after the `@`, when there is one."),
  }),
  examples: [
    {
      title: "A valid address with a subaddress",
      input: { email: "jane.doe+news@example.co.uk" },
      output: {
        valid: true,
        reason: null,
        localPart: "jane.doe+news",
        domain: "example.co.uk",
      },
    },
    {
      title: "A space in the local part",
      input: { email: "jane doe@example.com" },
      output: {
        valid: false,
        reason: "the character ' ' at index 4 is not allowed in the local part",
        localPart: "jane doe",
        domain: "example.com",
      },
    },
    {
      title: "No @ at all",
      input: { email: "jane.example.com" },
      output: {
        valid: false,
        reason: "there is no '@'",
        localPart: null,
        domain: null,
      },
    },
  ],
  handler: ({ email }) => {
    const at = email.indexOf("@");
    const reason = problemOf(email);
    return {
      valid: reason === null,
      reason,
      localPart: at === -1 ? null : email.slice(0, at),
      domain: at === -1 ? null : email.slice(at + 1),
    };
  },
});
