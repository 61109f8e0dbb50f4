import { Address4, Address6 } from "ip-address";
import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import supernet from "./supernet.js";

interface SupernetAnswer {
  supernet: string;
  version: number;
  networkAddress: string;
  lastAddress: string;
  netmask: string;
  prefixLength: number;
  addressCount: string;
  networks: string[];
}

const inputOf = (networks: unknown, strict?: boolean) =>
  strict === undefined ? { networks } : { networks, strict };

const run = (networks: string[], strict?: boolean) =>
  execute(supernet, inputOf(networks, strict)) as SupernetAnswer;

/** The problems of a refused request, as `[loc, type]` pairs. */
const refusal = (networks: unknown, strict?: boolean) =>
  locTypes(problemsOf(supernet, inputOf(networks, strict)));

describe("ip/supernet", () => {
  itAnswersItsExamples(supernet);

  describe("finds the smallest covering network", () => {
    it.each([
      // IPv4
      [["192.168.0.0/24", "192.168.1.0/24"], "192.168.0.0/23", "512"],
      [["10.0.0.0/8", "11.0.0.0/8"], "10.0.0.0/7", "33554432"],
      [["128.0.0.0/1", "0.0.0.0/1"], "0.0.0.0/0", "4294967296"],
      [["0.0.0.0/0"], "0.0.0.0/0", "4294967296"],
      [["0.0.0.0/0", "10.1.2.3"], "0.0.0.0/0", "4294967296"],
      [["255.255.255.255"], "255.255.255.255/32", "1"],
      [["0.0.0.0"], "0.0.0.0/32", "1"],
      [["192.168.0.0/24", "192.168.2.0/24"], "192.168.0.0/22", "1024"],
      [["192.168.1.0/24", "192.168.2.0/24"], "192.168.0.0/22", "1024"],
      [["10.0.0.0/24", "10.0.0.0/16"], "10.0.0.0/16", "65536"],
      [["10.0.0.0/24", "10.0.0.0/24"], "10.0.0.0/24", "256"],
      [["10.0.0.1", "10.0.0.2"], "10.0.0.0/30", "4"],
      [["10.0.0.0", "10.0.0.1"], "10.0.0.0/31", "2"],
      [["127.255.255.255", "128.0.0.0"], "0.0.0.0/0", "4294967296"],
      [["255.255.255.254", "255.255.255.255"], "255.255.255.254/31", "2"],
      [["200.1.2.3/16", "200.1.250.0/24"], "200.1.0.0/16", "65536"],
      [["172.16.0.0/12", "172.31.255.255"], "172.16.0.0/12", "1048576"],
      [["192.0.2.0/24", "198.51.100.0/24", "203.0.113.0/24"], "192.0.0.0/4", "268435456"],
      [["224.0.0.0/4", "240.0.0.0/4"], "224.0.0.0/3", "536870912"],
      // IPv6
      [["2001:db8::/48", "2001:db8:1::/48"], "2001:db8::/47", "2417851639229258349412352"],
      [["::/0"], "::/0", "340282366920938463463374607431768211456"],
      [["8000::/1", "::/1"], "::/0", "340282366920938463463374607431768211456"],
      [["::1"], "::1/128", "1"],
      [["::"], "::/128", "1"],
      [
        ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff"],
        "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128",
        "1",
      ],
      [["fe80::1", "fe80::2"], "fe80::/126", "4"],
      [["2001:DB8::/32", "2001:0db8:ffff::/48"], "2001:db8::/32", "79228162514264337593543950336"],
      [["2001:db8::/64", "2001:db9::/64"], "2001:db8::/31", "158456325028528675187087900672"],
      // IPv4-mapped IPv6 addresses are IPv6, written in RFC 5952 mixed notation.
      [["::ffff:1.2.3.4"], "::ffff:1.2.3.4/128", "1"],
      [["::ffff:10.0.0.0", "::ffff:10.0.0.255"], "::ffff:10.0.0.0/120", "256"],
      [["::ffff:0:0/96", "::ffff:255.255.255.255"], "::ffff:0.0.0.0/96", "4294967296"],
      [["::ffff:1.2.3.4", "::1.2.3.4"], "::/80", "281474976710656"],
    ])("%j → %s (%s addresses)", (networks, expected, count) => {
      const answer = run(networks);
      expect(answer.supernet).toBe(expected);
      expect(answer.addressCount).toBe(count);
      expect(`${answer.networkAddress}/${answer.prefixLength}`).toBe(expected);
    });
  });

  it("answers every field for a high IPv4 range (no signed 32-bit arithmetic)", () => {
    expect(run(["192.168.255.0/24", "192.169.0.0/24"])).toEqual({
      supernet: "192.168.0.0/15",
      version: 4,
      networkAddress: "192.168.0.0",
      lastAddress: "192.169.255.255",
      netmask: "255.254.0.0",
      prefixLength: 15,
      addressCount: "131072",
      networks: ["192.168.255.0/24", "192.169.0.0/24"],
    });
  });

  it("answers every field for ::/0", () => {
    expect(run(["::/0"])).toEqual({
      supernet: "::/0",
      version: 6,
      networkAddress: "::",
      lastAddress: "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      netmask: "::",
      prefixLength: 0,
      addressCount: "340282366920938463463374607431768211456",
      networks: ["::/0"],
    });
  });

  it("answers every field for 0.0.0.0/0", () => {
    expect(run(["0.0.0.0/0"])).toMatchObject({
      lastAddress: "255.255.255.255",
      netmask: "0.0.0.0",
      version: 4,
    });
  });

  describe("writes networks canonically (RFC 5952 vectors)", () => {
    it.each([
      ["2001:db8:0:0:0:0:2:1", "2001:db8::2:1/128"],
      ["2001:db8:0:1:1:1:1:1", "2001:db8:0:1:1:1:1:1/128"],
      ["2001:0:0:1:0:0:0:1", "2001:0:0:1::1/128"],
      ["2001:db8:0:0:1:0:0:1", "2001:db8::1:0:0:1/128"],
      ["2001:DB8::1", "2001:db8::1/128"],
      ["2001:0db8:0000:0000:0000:0000:0000:0001/64", "2001:db8::/64"],
      ["1:2:3:4:5:6:7::", "1:2:3:4:5:6:7:0/128"],
      ["::ffff:c000:0201", "::ffff:192.0.2.1/128"],
      ["::ffff:192.0.2.1/120", "::ffff:192.0.2.0/120"],
      ["::192.0.2.1", "::c000:201/128"],
      ["10.0.0.5/24", "10.0.0.0/24"],
      ["10.255.255.255/8", "10.0.0.0/8"],
      ["1.2.3.4/0", "0.0.0.0/0"],
      ["0:0:1:0:0:1:0:0", "::1:0:0:1:0:0/128"],
      ["1:0:0:2:0:0:0:3", "1:0:0:2::3/128"],
      ["1:0:2:0:3:0:4:0", "1:0:2:0:3:0:4:0/128"],
      ["ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff", "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff/128"],
      ["0:0:0:0:0:0:0:0", "::/128"],
      ["0:0:0:0:0:0:0:1", "::1/128"],
      ["1:0:0:0:0:0:0:0", "1::/128"],
      ["0:0:0:0:0:fffe:0:0", "::fffe:0:0/128"],
    ])("%s → %s", (input, normalised) => {
      expect(run([input]).networks).toEqual([normalised]);
    });

    // The library's round trip is the reference for the hand-written RFC 5952 form.
    it.each([
      "2001:db8:85a3::8a2e:370:7334",
      "fe80::1:0:0:0",
      "0:1:0:1:0:1:0:1",
      "abcd:ef01:2345:6789:abcd:ef01:2345:6789",
      "0:0:a:0:0:0:b:0",
      "::fffe:0:1",
    ])("writes %s as ip-address does", (address) => {
      const canonical = Address6.fromBigInt(new Address6(address).bigInt()).correctForm();
      expect(run([address]).networks).toEqual([`${canonical}/128`]);
    });
  });

  it("keeps the input order in networks", () => {
    expect(run(["10.0.2.0/24", "10.0.0.7", "10.0.1.0/24"]).networks).toEqual([
      "10.0.2.0/24",
      "10.0.0.7/32",
      "10.0.1.0/24",
    ]);
  });

  describe("strict", () => {
    it.each([
      [false, ["10.0.0.5/24"], "10.0.0.0/24"],
      [true, ["10.0.0.0/24"], "10.0.0.0/24"],
      [true, ["10.0.0.5"], "10.0.0.5/32"],
      [true, ["2001:db8::/32"], "2001:db8::/32"],
      [false, ["2001:db8::1/32"], "2001:db8::/32"],
    ])("strict=%s accepts %j as %s", (strict, networks, expected) => {
      expect(run(networks, strict).supernet).toBe(expected);
    });

    it.each([
      [["10.0.0.5/24"], ["networks", "0"]],
      [
        ["10.0.0.0/24", "10.0.1.1/24"],
        ["networks", "1"],
      ],
      [
        ["2001:db8::/32", "2001:db8::1/64"],
        ["networks", "1"],
      ],
    ])("strict=true refuses host bits in %j at %j", (networks, loc) => {
      expect(refusal(networks, true)).toEqual([[loc, "value_error"]]);
    });

    it("names the network the item would normalise to", () => {
      expect(() => run(["10.0.0.5/24"], true)).toThrow(/10\.0\.0\.0\/24/);
    });
  });

  describe("refuses mixed families at the first item of the other family", () => {
    it.each([
      [["10.0.0.0/8", "2001:db8::/32"], "1"],
      [["2001:db8::/32", "10.0.0.0/8"], "1"],
      [["10.0.0.0/8", "10.1.0.0/16", "::ffff:10.0.0.1"], "2"],
    ])("%j → networks.%s", (networks, index) => {
      expect(refusal(networks)).toEqual([[["networks", index], "value_error"]]);
    });
  });

  describe("refuses bad items, each at its own index", () => {
    it.each([
      ["010.0.0.1", "value_error"],
      ["10.0.0.01", "value_error"],
      ["::ffff:010.0.0.1", "value_error"],
      ["10.0.0.1/33", "value_error"],
      ["2001:db8::/129", "value_error"],
      ["10.0.0.0/-1", "value_error"],
      ["10.0.0.0/+8", "value_error"],
      ["10.0.0.0/08", "value_error"],
      ["2001:db8::/048", "value_error"],
      ["10.0.0.0/", "value_error"],
      ["10.0.0.0/8/8", "value_error"],
      ["fe80::1%eth0", "value_error"],
      ["fe80::1%eth0/64", "value_error"],
      [" 10.0.0.0/8", "value_error"],
      ["10.0.0.0/8 ", "value_error"],
      ["10.0.0.0 /8", "value_error"],
      ["256.0.0.0", "value_error"],
      ["1.2.3", "value_error"],
      ["0x0a.0.0.0", "value_error"],
      ["１.2.3.4", "value_error"],
      ["1::2::3", "value_error"],
      ["12345::", "value_error"],
      ["[::1]", "value_error"],
      ["example.com", "value_error"],
    ])("%j → %s", (item, type) => {
      expect(refusal(["10.0.0.0/8", item])).toEqual([[["networks", "1"], type]]);
    });

    it.each([
      ["", "string_too_short"],
      ["1".repeat(70), "string_too_long"],
      [`::${"0:".repeat(31)}1`, "string_too_long"],
    ])("%j → %s, without a second problem", (item, type) => {
      expect(refusal(["10.0.0.0/8", item]).map(([, problemType]) => problemType)).toEqual([type]);
    });

    it("reports every bad item at once", () => {
      expect(refusal(["10.0.0.0/8", "010.0.0.1", "10.0.0.0/24", "1.2.3.4/33", "x"])).toEqual([
        [["networks", "1"], "value_error"],
        [["networks", "3"], "value_error"],
        [["networks", "4"], "value_error"],
      ]);
    });

    it("says what is wrong with an item", () => {
      expect(() => run(["010.0.0.1"])).toThrow(/leading zero/);
      expect(() => run(["10.0.0.0/33"])).toThrow(/out of range/);
      expect(() => run(["fe80::1%eth0"])).toThrow(/zone/);
    });
  });

  describe("bounds the list", () => {
    it("accepts 1,000 networks", () => {
      const networks = Array.from({ length: 1000 }, (_, i) => `10.${i >> 8}.${i & 255}.0/24`);
      expect(run(networks).supernet).toBe("10.0.0.0/14");
    });

    it.each([
      ["an empty list", [], "too_short"],
      ["1,001 networks", Array.from({ length: 1001 }, () => "10.0.0.0/8"), "too_long"],
    ])("refuses %s (%s)", (_, networks, type) => {
      expect(refusal(networks).map(([, problemType]) => problemType)).toEqual([type]);
    });

    it("requires networks", () => {
      expect(refusal(undefined)).toEqual([[["networks"], "missing"]]);
    });
  });
});

describe("ip/supernet writes IPv4 addresses as ip-address does", () => {
  // The operation formats dotted decimal itself (for speed); the library is the reference.
  const samples = [0, 1, 255, 256, 0x7fff_ffff, 0x8000_0000, 0xc0a8_0001, 0xffff_fffe, 0xffff_ffff];
  let seed = 20251122;
  for (let i = 0; i < 200; i += 1) {
    seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31;
    samples.push((seed * 2) >>> 0);
  }
  it.each(samples)("%i", (value) => {
    const written = Address4.fromBigInt(BigInt(value)).correctForm();
    const answer = run([written]);
    expect(answer.networkAddress).toBe(written);
    expect(answer.networks).toEqual([`${written}/32`]);
    const mapped = run([`::ffff:${written}`]);
    expect(mapped.networkAddress).toBe(`::ffff:${written}`);
  });
});
