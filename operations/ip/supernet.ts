import { CalculationError, defineOperation, ITEM_WORK, list, z } from "#kit";
import {
  ADDRESS_BITS,
  formatAddress,
  formatCidr,
  hostMask,
  ipText,
  networkStart,
  parseOnce,
} from "./_ip.js";

const MAX_NETWORKS = 1000;

/** Validates one list item, so every bad item is reported with its own index. */
const networkItem = ipText(
  "An IPv4 or IPv6 network in CIDR notation, or a bare address (a /32 or /128).",
);

export default defineOperation({
  area: "ip",
  name: "supernet",
  summary: "Smallest network containing all given networks",
  description: [
    "Finds the smallest CIDR block (the longest prefix) that contains every given network: the",
    "common leading bits of the lowest first address and the highest last address. The",
    "arithmetic is exact on 32- and 128-bit integers, so `0.0.0.0/0`, `::/0` and first octets",
    "of 128 and above are handled like any other network.",
    "",
    "`networks` takes 1 to 1,000 items, each an IPv4 or IPv6 network in CIDR notation",
    "(`192.168.0.0/24`, `2001:db8::/48`) or a bare address, which counts as a /32 or /128.",
    "Send them as repeated parameters, comma-separated, or both. All items must be of one",
    "family: mixing IPv4 and IPv6 is a 422. An IPv4-mapped address such as `::ffff:1.2.3.4`",
    'is IPv6. Refused with a 422 located at the item (`["networks", "2"]`): items over',
    "64 characters, whitespace, zone identifiers (`fe80::1%eth0`), IPv4 octets with leading",
    "zeros (`010.0.0.1`, ambiguous between octal and decimal), prefix lengths out of range",
    "(`/33` for IPv4, `/129` for IPv6), with a sign or with leading zeros.",
    "",
    "A network written with host bits set (`10.0.0.5/24`) is normalised to its network",
    "(`10.0.0.0/24`); with `strict=true` it is a 422 instead.",
    "",
    "The answer gives the `supernet` in CIDR notation, its `networkAddress`, `lastAddress`,",
    "`netmask` and `prefixLength`, its `addressCount` as a decimal string (an IPv6 count can",
    "reach 2^128, beyond what a JSON number holds exactly), and the input `networks`",
    "normalised, in the order given. Addresses are written canonically: dotted decimal for",
    "IPv4; for IPv6 the RFC 5952 form (lowercase, the longest run of zero groups as `::`),",
    "with IPv4-mapped addresses in the mixed notation of RFC 5952 section 5 (`::ffff:1.2.3.4`).",
  ].join("\n"),
  input: z.object({
    networks: list(networkItem, {
      min: 1,
      max: MAX_NETWORKS,
      description:
        "The networks to cover: 1 to 1,000 CIDRs or bare addresses, all IPv4 or all IPv6.",
    }),
    strict: z
      .boolean()
      .default(false)
      .describe(
        "When true, a network with host bits set (`10.0.0.5/24`) is refused; when false it is normalised (`10.0.0.0/24`).",
      ),
  }),
  output: z.object({
    supernet: z.string().describe("The smallest network containing every input, in CIDR notation."),
    version: z.int().describe("The IP version of the networks: 4 or 6."),
    networkAddress: z.string().describe("The first address of the supernet."),
    lastAddress: z
      .string()
      .describe("The last address of the supernet (for IPv4, its broadcast address)."),
    netmask: z
      .string()
      .describe(
        "The supernet's mask, written as an address (`255.255.254.0`, `ffff:ffff:fffe::`).",
      ),
    prefixLength: z
      .int()
      .describe("The supernet's prefix length: 0 to 32 for IPv4, 0 to 128 for IPv6."),
    addressCount: z
      .string()
      .describe(
        "How many addresses the supernet spans, 2^(bits − prefixLength), as a decimal string.",
      ),
    networks: z
      .array(z.string())
      .describe(
        "The input networks in canonical CIDR notation, host bits cleared, in input order.",
      ),
  }),
  examples: [
    {
      title: "Two adjacent /24 networks make a /23",
      input: { networks: ["192.168.0.0/24", "192.168.1.0/24"] },
      output: {
        supernet: "192.168.0.0/23",
        version: 4,
        networkAddress: "192.168.0.0",
        lastAddress: "192.168.1.255",
        netmask: "255.255.254.0",
        prefixLength: 23,
        addressCount: "512",
        networks: ["192.168.0.0/24", "192.168.1.0/24"],
      },
    },
    {
      title: "IPv6 networks, and a count beyond 2^53",
      input: { networks: ["2001:db8::/48", "2001:db8:1::/48"] },
      output: {
        supernet: "2001:db8::/47",
        version: 6,
        networkAddress: "2001:db8::",
        lastAddress: "2001:db8:1:ffff:ffff:ffff:ffff:ffff",
        netmask: "ffff:ffff:fffe::",
        prefixLength: 47,
        addressCount: "2417851639229258349412352",
        networks: ["2001:db8::/48", "2001:db8:1::/48"],
      },
    },
    {
      title: "Host bits are cleared and a bare address is a /32",
      input: { networks: ["10.0.0.5/24", "10.0.3.7"] },
      output: {
        supernet: "10.0.0.0/22",
        version: 4,
        networkAddress: "10.0.0.0",
        lastAddress: "10.0.3.255",
        netmask: "255.255.252.0",
        prefixLength: 22,
        addressCount: "1024",
        networks: ["10.0.0.0/24", "10.0.3.7/32"],
      },
    },
  ],
  // Parsing an address costs a few microseconds; each answered network takes at most
  // 56 bytes (`"ffff:…:ffff/128",` is 46).
  cost: ({ networks }) => ({
    work: networks.length * 5 * ITEM_WORK,
    bytes: networks.length * 56 + 512,
    loc: ["networks"],
  }),
  handler: ({ networks, strict }) => {
    const parsed = networks.map((text, index) => {
      const outcome = parseOnce(text);
      // The input schema has already refused every item this would reject.
      if (!outcome.ok) throw new CalculationError(outcome.reason, ["networks", String(index)]);
      return outcome.network;
    });
    const [first] = parsed;
    if (first === undefined) throw new CalculationError("no network given", ["networks"]);
    const { version } = first;
    const bits = ADDRESS_BITS[version];

    let lowest: bigint | undefined;
    let highest: bigint | undefined;
    const normalised = parsed.map((network, index) => {
      const text = networks[index] ?? "";
      if (network.version !== version) {
        throw new CalculationError(
          `IPv4 and IPv6 cannot be mixed: '${text}' is IPv${network.version}, but the first network is IPv${version}`,
          ["networks", String(index)],
        );
      }
      const start = networkStart(network.address, network.prefixLength, bits);
      const cidr = formatCidr(version, start, network.prefixLength);
      if (strict && start !== network.address) {
        throw new CalculationError(
          `'${text}' has host bits set; its network is ${cidr} (strict=false normalises it)`,
          ["networks", String(index)],
        );
      }
      const end = start | hostMask(bits - network.prefixLength);
      if (lowest === undefined || start < lowest) lowest = start;
      if (highest === undefined || end > highest) highest = end;
      return cidr;
    });
    const low = lowest ?? 0n;
    const high = highest ?? 0n;

    // The first bit where the lowest and highest addresses differ ends the common prefix.
    const differingBits = low ^ high;
    const prefixLength = differingBits === 0n ? bits : bits - differingBits.toString(2).length;
    const hostBits = bits - prefixLength;
    const start = networkStart(low, prefixLength, bits);

    return {
      supernet: formatCidr(version, start, prefixLength),
      version,
      networkAddress: formatAddress(version, start),
      lastAddress: formatAddress(version, start | hostMask(hostBits)),
      netmask: formatAddress(version, hostMask(bits) ^ hostMask(hostBits)),
      prefixLength,
      addressCount: (1n << BigInt(hostBits)).toString(),
      networks: normalised,
    };
  },
});
