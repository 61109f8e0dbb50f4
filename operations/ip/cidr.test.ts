import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import { ipAddressLoaded } from "./_ip.js";
import cidr from "./cidr.js";

type Answer = Record<string, unknown>;
const run = (network: string) => execute(cidr, { network }) as Answer;

describe("ip/cidr", () => {
  // First in the file: importing the operations must not load `ip-address`; a first read does.
  it("loads ip-address on first use, not at import", () => {
    expect(ipAddressLoaded()).toBe(false);
    run("10.0.0.0/8");
    expect(ipAddressLoaded()).toBe(true);
  });

  itAnswersItsExamples(cidr);

  it.each([
    // network, cidr, first host, last host, broadcast, netmask, wildcard, addresses, hosts
    [
      "10.0.0.0/8",
      "10.0.0.0/8",
      "10.0.0.1",
      "10.255.255.254",
      "10.255.255.255",
      "255.0.0.0",
      "0.255.255.255",
      "16777216",
      "16777214",
    ],
    [
      "172.16.5.4/12",
      "172.16.0.0/12",
      "172.16.0.1",
      "172.31.255.254",
      "172.31.255.255",
      "255.240.0.0",
      "0.15.255.255",
      "1048576",
      "1048574",
    ],
    [
      "192.168.1.77/30",
      "192.168.1.76/30",
      "192.168.1.77",
      "192.168.1.78",
      "192.168.1.79",
      "255.255.255.252",
      "0.0.0.3",
      "4",
      "2",
    ],
    [
      "192.168.1.77/31",
      "192.168.1.76/31",
      "192.168.1.76",
      "192.168.1.77",
      null,
      "255.255.255.254",
      "0.0.0.1",
      "2",
      "2",
    ],
    [
      "192.168.1.77",
      "192.168.1.77/32",
      "192.168.1.77",
      "192.168.1.77",
      null,
      "255.255.255.255",
      "0.0.0.0",
      "1",
      "1",
    ],
    [
      "0.0.0.0/0",
      "0.0.0.0/0",
      "0.0.0.1",
      "255.255.255.254",
      "255.255.255.255",
      "0.0.0.0",
      "255.255.255.255",
      "4294967296",
      "4294967294",
    ],
    [
      "255.255.255.255/1",
      "128.0.0.0/1",
      "128.0.0.1",
      "255.255.255.254",
      "255.255.255.255",
      "128.0.0.0",
      "127.255.255.255",
      "2147483648",
      "2147483646",
    ],
    [
      "2001:db8::/32",
      "2001:db8::/32",
      "2001:db8::",
      "2001:db8:ffff:ffff:ffff:ffff:ffff:ffff",
      null,
      "ffff:ffff::",
      "::ffff:ffff:ffff:ffff:ffff:ffff",
      "79228162514264337593543950336",
      "79228162514264337593543950336",
    ],
    [
      "fe80::1/10",
      "fe80::/10",
      "fe80::",
      "febf:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      null,
      "ffc0::",
      "3f:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "332306998946228968225951765070086144",
      "332306998946228968225951765070086144",
    ],
    [
      "::1",
      "::1/128",
      "::1",
      "::1",
      null,
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "::",
      "1",
      "1",
    ],
    [
      "::/0",
      "::/0",
      "::",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      null,
      "::",
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:ffff",
      "340282366920938463463374607431768211456",
      "340282366920938463463374607431768211456",
    ],
    [
      "::ffff:192.0.2.1/127",
      "::ffff:192.0.2.0/127",
      "::ffff:192.0.2.0",
      "::ffff:192.0.2.1",
      null,
      "ffff:ffff:ffff:ffff:ffff:ffff:ffff:fffe",
      "::1",
      "2",
      "2",
    ],
  ])(
    "%s",
    (network, expected, firstHost, lastHost, broadcastAddress, netmask, wildcard, addressCount, hostCount) => {
      expect(run(network)).toMatchObject({
        cidr: expected,
        firstHost,
        lastHost,
        broadcastAddress,
        netmask,
        wildcard,
        addressCount,
        hostCount,
      });
    },
  );

  it("writes IPv6 canonically (RFC 5952)", () => {
    expect(run("2001:0DB8:0000:0000:0001:0000:0000:0001/128").address).toBe("2001:db8::1:0:0:1");
    expect(run("2001:db8:0:1:1:1:1:1/64").address).toBe("2001:db8:0:1:1:1:1:1");
  });

  it.each([
    "010.0.0.1/8",
    "10.0.0.1/33",
    "10.0.0.1/08",
    "2001:db8::/129",
    "2001:db8::/048",
    "fe80::1%eth0/64",
    " 10.0.0.0/8",
    "10.0.0.0/8/8",
    "256.0.0.0/8",
    "example.com",
  ])("refuses %j with a 422", (network) => {
    expect(locTypes(problemsOf(cidr, { network }))).toEqual([[["network"], "value_error"]]);
  });

  it.each([
    ["", "string_too_short"],
    ["1".repeat(65), "string_too_long"],
  ])("refuses %j (%s)", (network, type) => {
    expect(locTypes(problemsOf(cidr, { network }))).toEqual([[["network"], type]]);
  });
});
