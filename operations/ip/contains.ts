import { defineOperation, ITEM_WORK, list, z } from "#kit";
import { ADDRESS_BITS, formatAddress, formatCidr, ipText, networkStart, parsed } from "./_ip.js";

const MAX_NETWORKS = 1000;

export default defineOperation({
  area: "ip",
  name: "contains",
  summary: "Whether an IP address is in one or several networks",
  description: [
    "Tells whether `address` lies in any of `networks` (1 to 1,000 IPv4 or IPv6 networks in",
    "CIDR notation, or bare addresses, which count as a /32 or /128), as an allow-list check",
    "would. `matches` lists every network that contains it, in canonical CIDR notation and in",
    "the order given, and `longestMatch` the most specific of them (the longest prefix, as a",
    "router picks a route; the first given on a tie), or null.",
    "",
    "IPv4 and IPv6 networks may be mixed in the list; an address is only ever in networks of",
    "its own family, so `10.0.0.1` is not in `::ffff:10.0.0.0/104` and `::ffff:10.0.0.1` (an",
    "IPv4-mapped IPv6 address) is not in `10.0.0.0/8`. A network written with host bits set",
    "(`10.0.0.5/24`) means the network that holds it (`10.0.0.0/24`).",
    "",
    "Addresses and networks are read as `ip/cidr` reads them, with the same refusals (a 422 at",
    "the item: whitespace, zone identifiers, octets with leading zeros, bad prefix lengths);",
    "`address` takes no prefix length. Send `networks` as repeated parameters,",
    "comma-separated, or both.",
  ].join("\n"),
  input: z.object({
    address: ipText("The IPv4 or IPv6 address to look for.", true),
    networks: list(ipText("An IPv4 or IPv6 network in CIDR notation, or a bare address."), {
      min: 1,
      max: MAX_NETWORKS,
      description: "The networks to look in: 1 to 1,000, IPv4 and IPv6 alike.",
    }),
  }),
  output: z.object({
    address: z.string().describe("The address, written canonically."),
    version: z.int().describe("The address's IP version: 4 or 6."),
    contained: z.boolean().describe("Whether any of the networks contains the address."),
    matches: z
      .array(z.string())
      .describe("The networks that contain the address, canonical, in input order."),
    longestMatch: z
      .string()
      .nullable()
      .describe("The most specific network containing the address, or null."),
  }),
  examples: [
    {
      title: "In a private range",
      input: { address: "10.1.2.3", networks: ["192.168.0.0/16", "10.0.0.0/8", "10.1.0.0/16"] },
      output: {
        address: "10.1.2.3",
        version: 4,
        contained: true,
        matches: ["10.0.0.0/8", "10.1.0.0/16"],
        longestMatch: "10.1.0.0/16",
      },
    },
    {
      title: "IPv6, not contained",
      input: { address: "2001:db8::1", networks: ["2001:db9::/32", "10.0.0.0/8"] },
      output: {
        address: "2001:db8::1",
        version: 6,
        contained: false,
        matches: [],
        longestMatch: null,
      },
    },
  ],
  // Parsing a network costs a few microseconds; each match answered takes at most 56 bytes.
  cost: ({ networks }) => ({
    work: networks.length * 5 * ITEM_WORK,
    bytes: networks.length * 56 + 512,
    loc: ["networks"],
  }),
  handler: ({ address, networks }) => {
    const target = parsed(address, true);
    const bits = ADDRESS_BITS[target.version];
    const matches: string[] = [];
    let longestMatch: string | null = null;
    let longest = -1;
    for (const text of networks) {
      const network = parsed(text);
      if (network.version !== target.version) continue;
      const start = networkStart(network.address, network.prefixLength, bits);
      if (networkStart(target.address, network.prefixLength, bits) !== start) continue;
      const cidr = formatCidr(network.version, start, network.prefixLength);
      matches.push(cidr);
      if (network.prefixLength > longest) {
        longest = network.prefixLength;
        longestMatch = cidr;
      }
    }
    return {
      address: formatAddress(target.version, target.address),
      version: target.version,
      contained: matches.length > 0,
      matches,
      longestMatch,
    };
  },
});
