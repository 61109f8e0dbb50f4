import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import email from "./email.js";

interface Answer {
  valid: boolean;
  reason: string | null;
  localPart: string | null;
  domain: string | null;
}

const run = (value: string) => execute(email, { email: value }) as Answer;

/** HTML's own pattern, as the standard prints it. */
const WHATWG =
  /^[a-zA-Z0-9.!#$%&'*+/=?^_`{|}~-]+@[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?(?:\.[a-zA-Z0-9](?:[a-zA-Z0-9-]{0,61}[a-zA-Z0-9])?)*$/;

describe("validate/email", () => {
  it.each([
    "jane@example.com",
    "a@b",
    "user@localhost",
    ".a..b.@example.com",
    "!#$%&'*+/=?^_`{|}~-@example.com",
    "x@xn--bcher-kva.example",
    "x@1.2.3.4",
    `${"a".repeat(64)}@example.com`,
    `a@${"b".repeat(63)}.com`,
  ])("%s is valid", (value) => {
    expect(run(value)).toMatchObject({ valid: true, reason: null });
  });

  it.each([
    ["jane.example.com", "there is no '@'"],
    ["a@b@c", "a second '@' at index 3"],
    ['"a b"@example.com', "'\"' at index 0"],
    ["@example.com", "local part before the '@' is empty"],
    ["jane@", "domain after the '@' is empty"],
    ["jane@-example.com", "'-example' at index 5 starts or ends with a hyphen"],
    ["jane@example-.com", "starts or ends with a hyphen"],
    ["jane@example..com", "empty label at index 13"],
    ["jane@example.com.", "empty label at index 17"],
    ["jane@[192.0.2.1]", "'[' at index 5"],
    ["jané@example.com", "'é' at index 3"],
    ["jane@bücher.example", "'ü' at index 6"],
    [" jane@example.com", "' ' at index 0"],
    ["jane@example.com ", "' ' at index 16"],
    [`${"a".repeat(65)}@example.com`, "the local part has 65 characters; RFC 5321 allows 64"],
    [`a@${"b".repeat(64)}.com`, "has 64 characters; at most 63"],
    [
      `a@${`${"b".repeat(63)}.`.repeat(4)}com`,
      "the domain has 259 characters; RFC 5321 allows 255",
    ],
    [
      `${"a".repeat(64)}@${"b".repeat(60)}.${"c".repeat(60)}.${"d".repeat(60)}.eeeeeee`,
      "the address has 255 characters; RFC 5321 allows 254",
    ],
  ])("%s is invalid: %s", (value, reason) => {
    const answer = run(value);
    expect(answer.valid).toBe(false);
    expect(answer.reason).toContain(reason);
  });

  it("splits at the first @ whenever there is one", () => {
    expect(run("a b@c")).toMatchObject({ localPart: "a b", domain: "c" });
    expect(run("a@b@c")).toMatchObject({ localPart: "a", domain: "b@c" });
    expect(run("abc")).toMatchObject({ localPart: null, domain: null });
  });

  it("agrees with the WHATWG pattern within RFC 5321's lengths", () => {
    fc.assert(
      fc.property(fc.stringMatching(/^[a-c.@\- é"]{1,20}$/), (value) => {
        const [local = "", domain = ""] = value.split("@");
        const expected =
          WHATWG.test(value) && local.length <= 64 && domain.length <= 255 && value.length <= 254;
        expect(run(value).valid).toBe(expected);
      }),
      { seed: 20261127, numRuns: 3000 },
    );
  });

  itAnswersItsExamples(email);

  it("refuses an empty address and one over 1,024 characters", () => {
    expect(locTypes(problemsOf(email, { email: "" }))).toEqual([[["email"], "string_too_short"]]);
    expect(problemsOf(email, { email: "a".repeat(1025) }).map((p) => p.type)).toEqual([
      "string_too_long",
    ]);
  });
});
