import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import contains from "./contains.js";

interface Answer {
  address: string;
  contained: boolean;
  matches: string[];
  longestMatch: string | null;
}
const run = (address: string, networks: string[]) =>
  execute(contains, { address, networks }) as Answer;

describe("ip/contains", () => {
  itAnswersItsExamples(contains);

  it.each([
    ["10.0.0.0", ["10.0.0.0/8"], true],
    ["10.255.255.255", ["10.0.0.0/8"], true],
    ["11.0.0.0", ["10.0.0.0/8"], false],
    ["9.255.255.255", ["10.0.0.0/8"], false],
    ["1.2.3.4", ["0.0.0.0/0"], true],
    ["1.2.3.4", ["1.2.3.4"], true],
    ["1.2.3.5", ["1.2.3.4"], false],
    ["192.168.1.100", ["192.168.1.77/25"], true],
    ["192.168.1.100", ["192.168.1.200/25"], false],
    ["2001:db8::1", ["2001:db8::/32"], true],
    ["2001:db9::1", ["2001:db8::/32"], false],
    ["::1", ["::/0"], true],
    ["10.0.0.1", ["::/0"], false],
    ["10.0.0.1", ["::ffff:10.0.0.0/104"], false],
    ["::ffff:10.0.0.1", ["10.0.0.0/8"], false],
    ["::ffff:10.0.0.1", ["::ffff:10.0.0.0/104"], true],
    ["2001:DB8::1", ["2001:db8::1/128"], true],
  ])("%s in %j → %s", (address, networks, contained) => {
    expect(run(address, networks).contained).toBe(contained);
  });

  it("lists every match in input order and picks the longest prefix, the first on a tie", () => {
    const answer = run("10.1.2.3", [
      "10.1.0.0/16",
      "0.0.0.0/0",
      "10.1.2.0/24",
      "10.1.2.0/24",
      "::/0",
    ]);
    expect(answer.matches).toEqual(["10.1.0.0/16", "0.0.0.0/0", "10.1.2.0/24", "10.1.2.0/24"]);
    expect(answer.longestMatch).toBe("10.1.2.0/24");
  });

  it("accepts 1,000 networks", () => {
    const networks = Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
    expect(run("10.3.231.9", networks).matches).toEqual(["10.3.231.0/24"]);
  });

  it.each([
    [{ address: "10.0.0.1/32", networks: ["10.0.0.0/8"] }, [[["address"], "value_error"]]],
    [{ address: "fe80::1%eth0", networks: ["fe80::/10"] }, [[["address"], "value_error"]]],
    [
      { address: "10.0.0.1", networks: ["10.0.0.0/8", "010.0.0.0/8"] },
      [[["networks", "1"], "value_error"]],
    ],
    [{ address: "10.0.0.1", networks: [] }, [[["networks"], "too_short"]]],
    [
      { address: "10.0.0.1", networks: Array.from({ length: 1001 }, () => "10.0.0.0/8") },
      [[["networks"], "too_long"]],
    ],
    [{ networks: ["10.0.0.0/8"] }, [[["address"], "missing"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(contains, input))).toEqual(expected);
  });
});
