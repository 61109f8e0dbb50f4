import { defineOperation, integer, z } from "#kit";
import {
  CATEGORIES,
  categoryOf,
  REGISTERED_STATUS_CODES,
  type RegistryStatus,
  UNOFFICIAL_STATUS_CODES,
  unassignedDescription,
} from "./_status-codes.js";

const REGISTRY_STATUSES = [
  "permanent",
  "temporary",
  "unused",
  "obsolete",
] as const satisfies readonly RegistryStatus[];

interface StatusCodeInfo {
  code: number;
  reason: string;
  category: string;
  description: string;
  registered: boolean;
  reference: string | null;
  source: string | null;
  registryStatus: RegistryStatus | null;
  alsoKnownAs: string[];
  isError: boolean;
}

/** Every known code, answered as it will be sent; built once, looked up per request. */
const KNOWN_CODES: ReadonlyMap<number, StatusCodeInfo> = new Map([
  ...REGISTERED_STATUS_CODES.map((entry): [number, StatusCodeInfo] => [
    entry.code,
    {
      code: entry.code,
      reason: entry.reason,
      category: categoryOf(entry.code),
      description: entry.description,
      registered: true,
      reference: entry.reference,
      source: null,
      registryStatus: entry.registryStatus ?? "permanent",
      alsoKnownAs: [...(entry.alsoKnownAs ?? [])],
      isError: entry.code >= 400,
    },
  ]),
  ...UNOFFICIAL_STATUS_CODES.map((entry): [number, StatusCodeInfo] => [
    entry.code,
    {
      code: entry.code,
      reason: entry.reason,
      category: categoryOf(entry.code),
      description: entry.description,
      registered: false,
      reference: null,
      source: entry.source,
      registryStatus: null,
      alsoKnownAs: [...(entry.alsoKnownAs ?? [])],
      isError: entry.code >= 400,
    },
  ]),
]);

function unassigned(code: number): StatusCodeInfo {
  return {
    code,
    reason: "Unassigned",
    category: categoryOf(code),
    description: unassignedDescription(code),
    registered: false,
    reference: null,
    source: null,
    registryStatus: null,
    alsoKnownAs: [],
    isError: code >= 400,
  };
}

export default defineOperation({
  area: "misc",
  name: "status-code",
  summary: "What an HTTP status code means",
  description: [
    "Looks up an HTTP status code from 100 to 599 and answers its reason phrase, category, a short description, and where it comes from.",
    "",
    "Every code in the IANA *HTTP Status Code Registry* is covered, with `registered: true` and the registry's `reference` (`RFC 9110, Section 15.5.5` for 404). " +
      "The `reason` is the RFC 9110 phrase where RFC 9110 defines the code (413 is `Content Too Large`, 422 `Unprocessable Content`) and the registry's phrase otherwise; " +
      "older or alternative names are listed in `alsoKnownAs` (418's reason is the registry's `(Unused)`, and `alsoKnownAs` holds `I'm a teapot (RFC 2324)`). " +
      "`registryStatus` tells ordinary (`permanent`) registrations from the `temporary` 104, the reserved `unused` 306 and 418, and the `obsolete` 510.",
    "",
    "Well-known unofficial codes (499 from nginx, 520–527 and 530 from Cloudflare, 460, 463, 464 and 561 from AWS Elastic Load Balancing, 419 from Laravel, …) answer `registered: false`, `reference: null`, and the product that uses them in `source`. " +
      'Any other code in range answers `reason: "Unassigned"`, with `source` and `reference` null and a description of how a client should treat it (as the x00 code of its class, RFC 9110, Section 15).',
    "",
    "`category` follows the first digit: `Informational`, `Success`, `Redirection`, `Client Error`, `Server Error`; `isError` is true for 4xx and 5xx. " +
      "A code below 100 or above 599, or one that is not an integer, is a 422.",
  ].join("\n"),
  input: z.object({
    code: integer({ min: 100, max: 599, description: "The HTTP status code, 100 to 599." }),
  }),
  output: z.object({
    code: z.int().describe("The status code looked up."),
    reason: z
      .string()
      .describe(
        "The reason phrase: RFC 9110's where it defines the code, else the IANA registry's, else the unofficial name, else \"Unassigned\".",
      ),
    category: z
      .string()
      .describe(
        `The class of the code, by its first digit: ${CATEGORIES.map((c) => `"${c}"`).join(", ")}.`,
      ),
    description: z.string().describe("What the code means, in one or two sentences."),
    registered: z.boolean().describe("Whether the code is in the IANA HTTP Status Code Registry."),
    reference: z
      .string()
      .nullable()
      .describe(
        'The specification the IANA registry cites, such as "RFC 9110, Section 15.5.5"; null for a code outside the registry.',
      ),
    source: z
      .string()
      .nullable()
      .describe(
        "Who uses an unofficial code (nginx, Cloudflare, …); null for registered and unassigned codes.",
      ),
    registryStatus: z
      .enum(REGISTRY_STATUSES)
      .nullable()
      .describe(
        "The code's standing in the IANA registry: permanent, temporary (104), unused (306, 418) or obsolete (510); null outside the registry.",
      ),
    alsoKnownAs: z
      .array(z.string())
      .describe(
        "Other names the code goes by, each with who uses or used it: former standard phrases, vendor meanings, famous jokes.",
      ),
    isError: z.boolean().describe("True for client and server errors (4xx and 5xx)."),
  }),
  examples: [
    {
      title: "A registered client error",
      input: { code: 404 },
      output: {
        code: 404,
        reason: "Not Found",
        category: "Client Error",
        description:
          "The server has no current representation of the target resource, or will not admit that one exists. It says nothing about whether the absence is temporary or permanent.",
        registered: true,
        reference: "RFC 9110, Section 15.5.5",
        source: null,
        registryStatus: "permanent",
        alsoKnownAs: [],
        isError: true,
      },
    },
    {
      title: "418 is reserved in the registry; the teapot joke is another name",
      input: { code: 418 },
      output: {
        code: 418,
        reason: "(Unused)",
        category: "Client Error",
        description:
          "Known as \"I'm a teapot\" from RFC 2324, an April Fools' protocol for coffee pots that is not part of HTTP. The joke is deployed so widely that RFC 9110 reserves the code instead of ever giving it a real meaning.",
        registered: true,
        reference: "RFC 9110, Section 15.5.19",
        source: null,
        registryStatus: "unused",
        alsoKnownAs: ["I'm a teapot (RFC 2324)"],
        isError: true,
      },
    },
    {
      title: "An unofficial code names the product that uses it",
      input: { code: 499 },
      output: {
        code: 499,
        reason: "Client Closed Request",
        category: "Client Error",
        description:
          "nginx logs it when the client closed the connection before the server could send its response. The client never sees it, having already gone.",
        registered: false,
        reference: null,
        source: "nginx",
        registryStatus: null,
        alsoKnownAs: ["Token Required (Esri ArcGIS Server)"],
        isError: true,
      },
    },
    {
      title: "A code in range that nobody assigned",
      input: { code: 299 },
      output: {
        code: 299,
        reason: "Unassigned",
        category: "Success",
        description:
          "This code is unassigned in the IANA registry and not among the well-known unofficial codes. A client should treat it as a generic success, like 200 (OK), but not cache it.",
        registered: false,
        reference: null,
        source: null,
        registryStatus: null,
        alsoKnownAs: [],
        isError: false,
      },
    },
  ],
  handler: ({ code }) => {
    const known = KNOWN_CODES.get(code);
    // A copy, so nothing downstream can alter the shared table entry.
    return known ? { ...known, alsoKnownAs: [...known.alsoKnownAs] } : unassigned(code);
  },
});
