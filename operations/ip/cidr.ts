import { defineOperation, z } from "#kit";
import {
  ADDRESS_BITS,
  formatAddress,
  formatCidr,
  hostMask,
  ipText,
  networkStart,
  parsed,
} from "./_ip.js";

export default defineOperation({
  area: "ip",
  name: "cidr",
  summary: "Details of an IPv4 or IPv6 network (subnet calculator)",
  description: [
    "Describes the network `network` names, in CIDR notation (`192.168.1.10/24`,",
    "`2001:db8::/32`) or as a bare address (a /32 or /128): its canonical `cidr`, first",
    "(`networkAddress`) and last address, `netmask` and `wildcard` (the inverted mask, as ACLs",
    "write it), `prefixLength`, and its `addressCount` and `hostCount` as decimal strings",
    "(an IPv6 count can reach 2^128, beyond what a JSON number holds exactly). An address",
    "with host bits set (`192.168.1.10/24`) names the network that holds it; `address` echoes",
    "it canonically.",
    "",
    "Hosts. IPv4: the network and broadcast addresses are not hosts, so `firstHost` and",
    "`lastHost` are one in from each end and `hostCount` is the size minus 2; a /31 is a",
    "point-to-point link whose two addresses are both hosts (RFC 3021) and a /32 is a single",
    "host; neither has a broadcast address (null). IPv6 has no broadcast (`broadcastAddress` is null) and every address of the",
    "network is counted as a host, from the first to the last (the all-zeros Subnet-Router",
    "anycast address of RFC 4291 is not set apart).",
    "",
    "Addresses are written canonically: dotted decimal for IPv4, RFC 5952 for IPv6",
    "(lowercase, the longest run of zero groups as `::`), IPv4-mapped addresses as",
    "`::ffff:1.2.3.4` (IPv6). Refused with a 422: more than 64 characters, whitespace, zone",
    "identifiers (`%eth0`), IPv4 octets with leading zeros (`010.0.0.1`), prefix lengths out",
    "of range, signed or with leading zeros.",
  ].join("\n"),
  input: z.object({
    network: ipText("An IPv4 or IPv6 network in CIDR notation, or a bare address."),
  }),
  output: z.object({
    cidr: z.string().describe("The network in canonical CIDR notation, host bits cleared."),
    version: z.int().describe("The IP version: 4 or 6."),
    address: z.string().describe("The address as given, written canonically."),
    networkAddress: z.string().describe("The first address of the network."),
    lastAddress: z.string().describe("The last address of the network."),
    broadcastAddress: z
      .string()
      .nullable()
      .describe(
        "The broadcast address (the last one) of an IPv4 network of 4 addresses or more; null for a /31, a /32 and IPv6.",
      ),
    firstHost: z.string().describe("The first host address (see the rules above)."),
    lastHost: z.string().describe("The last host address."),
    netmask: z.string().describe("The mask, written as an address (`255.255.255.0`)."),
    wildcard: z.string().describe("The inverted mask, written as an address (`0.0.0.255`)."),
    prefixLength: z.int().describe("The prefix length: 0 to 32 (IPv4) or 0 to 128 (IPv6)."),
    addressCount: z.string().describe("How many addresses the network spans, in decimal."),
    hostCount: z.string().describe("How many of them are hosts, in decimal."),
  }),
  examples: [
    {
      title: "An IPv4 address in a /24",
      input: { network: "192.168.1.10/24" },
      output: {
        cidr: "192.168.1.0/24",
        version: 4,
        address: "192.168.1.10",
        networkAddress: "192.168.1.0",
        lastAddress: "192.168.1.255",
        broadcastAddress: "192.168.1.255",
        firstHost: "192.168.1.1",
        lastHost: "192.168.1.254",
        netmask: "255.255.255.0",
        wildcard: "0.0.0.255",
        prefixLength: 24,
        addressCount: "256",
        hostCount: "254",
      },
    },
    {
      title: "A point-to-point /31 (RFC 3021)",
      input: { network: "10.0.0.0/31" },
      output: {
        cidr: "10.0.0.0/31",
        version: 4,
        address: "10.0.0.0",
        networkAddress: "10.0.0.0",
        lastAddress: "10.0.0.1",
        broadcastAddress: null,
        firstHost: "10.0.0.0",
        lastHost: "10.0.0.1",
        netmask: "255.255.255.254",
        wildcard: "0.0.0.1",
        prefixLength: 31,
        addressCount: "2",
        hostCount: "2",
      },
    },
    {
      title: "An IPv6 /64",
      input: { network: "2001:DB8:0:1::42/64" },
      output: {
        cidr: "2001:db8:0:1::/64",
        version: 6,
        address: "2001:db8:0:1::42",
        networkAddress: "2001:db8:0:1::",
        lastAddress: "2001:db8:0:1:ffff:ffff:ffff:ffff",
        broadcastAddress: null,
        firstHost: "2001:db8:0:1::",
        lastHost: "2001:db8:0:1:ffff:ffff:ffff:ffff",
        netmask: "ffff:ffff:ffff:ffff::",
        wildcard: "::ffff:ffff:ffff:ffff",
        prefixLength: 64,
        addressCount: "18446744073709551616",
        hostCount: "18446744073709551616",
      },
    },
  ],
  handler: ({ network }) => {
    const { version, address, prefixLength } = parsed(network);
    const bits = ADDRESS_BITS[version];
    const hostBits = bits - prefixLength;
    const start = networkStart(address, prefixLength, bits);
    const end = start | hostMask(hostBits);
    const size = 1n << BigInt(hostBits);
    // IPv4 networks of 4 addresses or more keep their first and last for network and broadcast.
    const reserved = version === 4 && hostBits >= 2;
    const write = (value: bigint) => formatAddress(version, value);
    return {
      cidr: formatCidr(version, start, prefixLength),
      version,
      address: write(address),
      networkAddress: write(start),
      lastAddress: write(end),
      broadcastAddress: reserved ? write(end) : null,
      firstHost: write(reserved ? start + 1n : start),
      lastHost: write(reserved ? end - 1n : end),
      netmask: write(hostMask(bits) ^ hostMask(hostBits)),
      wildcard: write(hostMask(hostBits)),
      prefixLength,
      addressCount: size.toString(),
      hostCount: (reserved ? size - 2n : size).toString(),
    };
  },
});
