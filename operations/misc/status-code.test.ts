import { describe, expect, it } from "vitest";
import type { z } from "zod";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, problemsOf } from "../_testing.js";
import {
  CATEGORIES,
  categoryOf,
  REGISTERED_STATUS_CODES,
  UNOFFICIAL_STATUS_CODES,
} from "./_status-codes.js";
import statusCode from "./status-code.js";

/** A response, as the operation's output schema declares it. */
type Answer = z.output<typeof statusCode.output>;

const run = (code: unknown) => execute(statusCode, { code }) as Answer;

/** Every code in the IANA HTTP Status Code Registry (2025), for checking the table. */
const IANA_REGISTERED = [
  100, 101, 102, 103, 104, 200, 201, 202, 203, 204, 205, 206, 207, 208, 226, 300, 301, 302, 303,
  304, 305, 306, 307, 308, 400, 401, 402, 403, 404, 405, 406, 407, 408, 409, 410, 411, 412, 413,
  414, 415, 416, 417, 418, 421, 422, 423, 424, 425, 426, 428, 429, 431, 451, 500, 501, 502, 503,
  504, 505, 506, 507, 508, 510, 511,
];

/** Sentences end with ".", "!" or "?" followed by a space or the end of the text. */
const sentenceCount = (text: string) => text.match(/[.!?](?=\s|$)/g)?.length ?? 0;

const ALL_ENTRIES = [...REGISTERED_STATUS_CODES, ...UNOFFICIAL_STATUS_CODES];

describe("misc/status-code", () => {
  describe("registered codes", () => {
    it.each([
      [100, "Continue", "Informational", "RFC 9110, Section 15.2.1"],
      [102, "Processing", "Informational", "RFC 2518"],
      [103, "Early Hints", "Informational", "RFC 8297"],
      [200, "OK", "Success", "RFC 9110, Section 15.3.1"],
      [207, "Multi-Status", "Success", "RFC 4918"],
      [208, "Already Reported", "Success", "RFC 5842"],
      [226, "IM Used", "Success", "RFC 3229"],
      [302, "Found", "Redirection", "RFC 9110, Section 15.4.3"],
      [306, "(Unused)", "Redirection", "RFC 9110, Section 15.4.7"],
      [308, "Permanent Redirect", "Redirection", "RFC 9110, Section 15.4.9"],
      [404, "Not Found", "Client Error", "RFC 9110, Section 15.5.5"],
      [413, "Content Too Large", "Client Error", "RFC 9110, Section 15.5.14"],
      [414, "URI Too Long", "Client Error", "RFC 9110, Section 15.5.15"],
      [416, "Range Not Satisfiable", "Client Error", "RFC 9110, Section 15.5.17"],
      [418, "(Unused)", "Client Error", "RFC 9110, Section 15.5.19"],
      [421, "Misdirected Request", "Client Error", "RFC 9110, Section 15.5.20"],
      [422, "Unprocessable Content", "Client Error", "RFC 9110, Section 15.5.21"],
      [423, "Locked", "Client Error", "RFC 4918"],
      [424, "Failed Dependency", "Client Error", "RFC 4918"],
      [425, "Too Early", "Client Error", "RFC 8470"],
      [426, "Upgrade Required", "Client Error", "RFC 9110, Section 15.5.22"],
      [428, "Precondition Required", "Client Error", "RFC 6585"],
      [429, "Too Many Requests", "Client Error", "RFC 6585"],
      [431, "Request Header Fields Too Large", "Client Error", "RFC 6585"],
      [451, "Unavailable For Legal Reasons", "Client Error", "RFC 7725"],
      [500, "Internal Server Error", "Server Error", "RFC 9110, Section 15.6.1"],
      [505, "HTTP Version Not Supported", "Server Error", "RFC 9110, Section 15.6.6"],
      [506, "Variant Also Negotiates", "Server Error", "RFC 2295"],
      [507, "Insufficient Storage", "Server Error", "RFC 4918"],
      [508, "Loop Detected", "Server Error", "RFC 5842"],
      [510, "Not Extended", "Server Error", "RFC 2774"],
      [511, "Network Authentication Required", "Server Error", "RFC 6585"],
    ])("%i → %s (%s, %s)", (code, reason, category, reference) => {
      expect(run(code)).toMatchObject({
        code,
        reason,
        category,
        reference,
        registered: true,
        source: null,
        isError: code >= 400,
      });
    });

    it("answers the whole record for 200", () => {
      expect(run(200)).toEqual({
        code: 200,
        reason: "OK",
        category: "Success",
        description:
          "The request succeeded. What the body holds depends on the method: the resource for a GET, the outcome of the action for a POST.",
        registered: true,
        reference: "RFC 9110, Section 15.3.1",
        source: null,
        registryStatus: "permanent",
        alsoKnownAs: [],
        isError: false,
      });
    });

    it.each([
      [104, "temporary"],
      [306, "unused"],
      [418, "unused"],
      [510, "obsolete"],
      [404, "permanent"],
    ])("%i has registry status %s", (code, registryStatus) => {
      expect(run(code).registryStatus).toBe(registryStatus);
    });

    it("marks 104 as a temporary registration from the resumable-upload draft", () => {
      expect(run(104)).toMatchObject({
        reason: "Upload Resumption Supported",
        registered: true,
        reference: "draft-ietf-httpbis-resumable-upload-05",
        registryStatus: "temporary",
      });
    });

    it("gives 418 the registry's (Unused) and keeps the teapot as another name", () => {
      const teapot = run(418);
      expect(teapot.reason).toBe("(Unused)");
      expect(teapot.alsoKnownAs).toEqual(["I'm a teapot (RFC 2324)"]);
      expect(teapot.description).toContain("I'm a teapot");
    });

    it.each([
      [413, "Payload Too Large (RFC 7231)"],
      [422, "Unprocessable Entity (RFC 4918)"],
      [416, "Requested Range Not Satisfiable (RFC 2616)"],
    ])("lists the former name of %i", (code, former) => {
      expect(run(code).alsoKnownAs).toContain(former);
    });
  });

  describe("unofficial codes", () => {
    it.each([
      [
        218,
        "This Is Fine",
        "Success",
        "Informal convention (often attributed to Apache HTTP Server)",
      ],
      [419, "Page Expired", "Client Error", "Laravel"],
      [420, "Enhance Your Calm", "Client Error", "Twitter"],
      [444, "No Response", "Client Error", "nginx"],
      [499, "Client Closed Request", "Client Error", "nginx"],
      [
        509,
        "Bandwidth Limit Exceeded",
        "Server Error",
        "Apache HTTP Server bandwidth modules, cPanel",
      ],
      [520, "Web Server Returned an Unknown Error", "Server Error", "Cloudflare"],
      [526, "Invalid SSL Certificate", "Server Error", "Cloudflare"],
      [561, "Unauthorized", "Server Error", "AWS Elastic Load Balancing"],
      [
        599,
        "Network Connect Timeout Error",
        "Server Error",
        "Informal convention (some HTTP proxies)",
      ],
    ])("%i → %s (%s, %s)", (code, reason, category, source) => {
      expect(run(code)).toMatchObject({
        code,
        reason,
        category,
        source,
        registered: false,
        reference: null,
        registryStatus: null,
      });
    });
  });

  describe("unassigned codes", () => {
    it.each([
      [150, "Informational", "100 (Continue)", false],
      [299, "Success", "200 (OK)", false],
      [399, "Redirection", "300 (Multiple Choices)", false],
      [427, "Client Error", "400 (Bad Request)", true],
      [549, "Server Error", "500 (Internal Server Error)", true],
    ])("%i is an unassigned %s code, handled like %s", (code, category, like, isError) => {
      const answer = run(code);
      expect(answer).toMatchObject({
        code,
        reason: "Unassigned",
        category,
        registered: false,
        reference: null,
        source: null,
        registryStatus: null,
        alsoKnownAs: [],
        isError,
      });
      expect(answer.description).toContain(like);
    });
  });

  describe("bad input", () => {
    it.each([
      [99, "greater_than_equal", { ge: 100 }],
      [600, "less_than_equal", { le: 599 }],
      [0, "greater_than_equal", { ge: 100 }],
      [-404, "greater_than_equal", { ge: 100 }],
    ])("refuses %i (%s)", (code, type, ctx) => {
      expect(problemsOf(statusCode, { code })).toEqual([
        expect.objectContaining({ loc: ["code"], type, ctx }),
      ]);
    });

    it.each([[404.5], ["abc"], ["4O4"], [Number.NaN], [true]])(
      "refuses %j as not an integer",
      (code) => {
        expect(problemsOf(statusCode, { code })).toEqual([
          expect.objectContaining({ loc: ["code"], type: "int_parsing" }),
        ]);
      },
    );

    it("requires a code", () => {
      expect(problemsOf(statusCode, {})).toEqual([
        expect.objectContaining({ loc: ["code"], type: "missing" }),
      ]);
    });
  });

  itAnswersItsExamples(statusCode);

  describe("the table", () => {
    it("holds exactly the codes of the IANA registry as registered entries", () => {
      expect(REGISTERED_STATUS_CODES.map((entry) => entry.code)).toEqual(IANA_REGISTERED);
    });

    it("has no duplicate codes, within or across the two lists", () => {
      const codes = ALL_ENTRIES.map((entry) => entry.code);
      expect(new Set(codes).size).toBe(codes.length);
    });

    it("keeps every code within 100 to 599", () => {
      for (const { code } of ALL_ENTRIES) {
        expect(Number.isInteger(code) && code >= 100 && code <= 599, String(code)).toBe(true);
      }
    });

    it("gives every registered entry a reference", () => {
      for (const entry of REGISTERED_STATUS_CODES) {
        expect(entry.reference, String(entry.code)).toMatch(
          /^(RFC \d+(, Section [\d.]+)?|draft-[a-z0-9-]+)$/,
        );
      }
    });

    it("cites RFC 9110 sections in the class of the code (15.2 for 1xx … 15.6 for 5xx)", () => {
      for (const { code, reference } of REGISTERED_STATUS_CODES) {
        const section = /^RFC 9110, Section 15\.(\d)\.\d+$/.exec(reference);
        if (section) expect(Number(section[1]), String(code)).toBe(Math.floor(code / 100) + 1);
      }
    });

    it("gives every unofficial entry a source", () => {
      for (const entry of UNOFFICIAL_STATUS_CODES) {
        expect(entry.source.trim(), String(entry.code)).not.toBe("");
      }
    });

    it("writes every description as one or two sentences ending with a period", () => {
      for (const { code, description } of ALL_ENTRIES) {
        expect(description, String(code)).toMatch(/\.$/);
        expect(sentenceCount(description), String(code)).toBeGreaterThanOrEqual(1);
        expect(sentenceCount(description), String(code)).toBeLessThanOrEqual(2);
      }
    });

    it("answers the category of every code by its first digit", () => {
      for (let code = 100; code <= 599; code++) {
        const answer = run(code);
        expect(answer.category, String(code)).toBe(CATEGORIES[Math.floor(code / 100) - 1]);
        expect(answer.category, String(code)).toBe(categoryOf(code));
        expect(answer.isError, String(code)).toBe(code >= 400);
        expect(answer.description, String(code)).toMatch(/\.$/);
        expect(sentenceCount(answer.description), String(code)).toBeLessThanOrEqual(2);
      }
    });

    it("answers registered, reference and source consistently for every code", () => {
      for (let code = 100; code <= 599; code++) {
        const answer = run(code);
        if (answer.registered) {
          expect(answer.reference, String(code)).not.toBeNull();
          expect(answer.source, String(code)).toBeNull();
          expect(answer.registryStatus, String(code)).not.toBeNull();
        } else {
          expect(answer.reference, String(code)).toBeNull();
          expect(answer.registryStatus, String(code)).toBeNull();
          expect(answer.source === null, String(code)).toBe(answer.reason === "Unassigned");
        }
      }
    });
  });
});
