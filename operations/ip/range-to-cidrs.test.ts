import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import rangeToCidrs from "./range-to-cidrs.js";

interface Answer {
  cidrs: string[];
  count: number;
  addressCount: string;
}
const run = (first: string, last: string) => execute(rangeToCidrs, { first, last }) as Answer;

/** The number of addresses the blocks cover, and whether they tile [first, last] in order. */
function tiles(
  cidrs: string[],
  bits: number,
  first: bigint,
  last: bigint,
  toBigInt: (a: string) => bigint,
) {
  let next = first;
  for (const block of cidrs) {
    const [address = "", prefix = "0"] = block.split("/");
    const start = toBigInt(address);
    const size = 1n << BigInt(bits - Number(prefix));
    if (start !== next || start % size !== 0n) return false;
    next = start + size;
  }
  return next === last + 1n;
}

const v4 = (address: string) =>
  address.split(".").reduce((value, octet) => (value << 8n) + BigInt(octet), 0n);

describe("ip/range-to-cidrs", () => {
  itAnswersItsExamples(rangeToCidrs);

  it.each([
    ["10.0.0.0", "10.0.0.0", ["10.0.0.0/32"]],
    ["10.0.0.0", "10.0.0.255", ["10.0.0.0/24"]],
    ["10.0.0.1", "10.0.0.2", ["10.0.0.1/32", "10.0.0.2/32"]],
    ["0.0.0.0", "255.255.255.255", ["0.0.0.0/0"]],
    ["255.255.255.255", "255.255.255.255", ["255.255.255.255/32"]],
    ["127.255.255.255", "128.0.0.0", ["127.255.255.255/32", "128.0.0.0/32"]],
    ["::", "::1", ["::/127"]],
    ["::1", "::2", ["::1/128", "::2/128"]],
    ["2001:db8::", "2001:db8::ffff", ["2001:db8::/112"]],
    ["::ffff:10.0.0.0", "::ffff:10.0.0.255", ["::ffff:10.0.0.0/120"]],
  ])("%s – %s → %j", (first, last, cidrs) => {
    expect(run(first, last).cidrs).toEqual(cidrs);
  });

  it("answers the worst IPv4 range in 62 blocks, exactly tiling it", () => {
    const answer = run("0.0.0.1", "255.255.255.254");
    expect(answer.count).toBe(62);
    expect(answer.addressCount).toBe("4294967294");
    expect(tiles(answer.cidrs, 32, 1n, 2n ** 32n - 2n, v4)).toBe(true);
  });

  it("answers the worst IPv6 range in 254 blocks", () => {
    const answer = run("::1", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe");
    expect(answer.count).toBe(254);
    expect(answer.cidrs[0]).toBe("::1/128");
    expect(answer.cidrs[253]).toBe("ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe/128");
    expect(answer.addressCount).toBe(String(2n ** 128n - 2n));
  });

  it("tiles 200 pseudo-random IPv4 ranges minimally", () => {
    let seed = 7;
    const next = () => {
      seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
      return BigInt(seed) * 2n;
    };
    const text = (n: bigint) => [24n, 16n, 8n, 0n].map((s) => String((n >> s) & 255n)).join(".");
    for (let i = 0; i < 200; i++) {
      const a = next() % 2n ** 32n;
      const b = (a + (next() % 100_000n)) % 2n ** 32n;
      const [low, high] = a <= b ? [a, b] : [b, a];
      const { cidrs } = run(text(low), text(high));
      expect(tiles(cidrs, 32, low, high, v4)).toBe(true);
      // Minimal: no two neighbours merge into one aligned block of twice the size.
      for (let j = 1; j < cidrs.length; j++) {
        const [x = "", px = ""] = (cidrs[j - 1] ?? "").split("/");
        const [, py = ""] = (cidrs[j] ?? "").split("/");
        const size = 1n << BigInt(32 - Number(px));
        expect(px === py && v4(x) % (2n * size) === 0n).toBe(false);
      }
    }
  });

  it.each([
    [{ first: "10.0.0.2", last: "10.0.0.1" }, [[["last"], "value_error"]]],
    [{ first: "10.0.0.1", last: "::1" }, [[["last"], "value_error"]]],
    [{ first: "10.0.0.0/8", last: "10.0.0.1" }, [[["first"], "value_error"]]],
    [{ first: "10.0.0.1" }, [[["last"], "missing"]]],
  ])("refuses %j", (input, expected) => {
    expect(locTypes(problemsOf(rangeToCidrs, input))).toEqual(expected);
  });
});
