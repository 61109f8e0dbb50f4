/**
 * Reading and writing IPv4 and IPv6 addresses and networks, shared by the `ip/` operations
 * (`ip/cidr`, `ip/contains`, `ip/range-to-cidrs`): the same refusals and the same
 * canonical forms everywhere. `ip-address` parses; the checks it lacks are made here.
 */
import { createRequire } from "node:module";
import { z } from "#kit";

type IpAddress = typeof import("ip-address");
let parser: IpAddress | undefined;

/**
 * `ip-address`, loaded on the first address read, not at start: about 0.5 MB of heap that a
 * process never asked about a network should not keep.
 */
function ipAddress(): IpAddress {
  parser ??= createRequire(import.meta.url)("ip-address") as IpAddress;
  return parser;
}

/** Whether `ip-address` has been loaded yet (for the test that importing does not load it). */
export const ipAddressLoaded = () => parser !== undefined;

/** Longest accepted item: the longest valid form (`ffff:…:255.255.255.255/128`) has 49. */
export const MAX_ITEM_LENGTH = 64;

export type IpVersion = 4 | 6;

export const ADDRESS_BITS: Record<IpVersion, number> = { 4: 32, 6: 128 };

/** A parsed network: the address as written (host bits included) and its prefix length. */
export interface ParsedNetwork {
  version: IpVersion;
  address: bigint;
  prefixLength: number;
}

export type ParseOutcome = { ok: true; network: ParsedNetwork } | { ok: false; reason: string };

/** The prefix length is plain decimal: no sign, no leading zeros (`/024` is refused). */
const PREFIX_LENGTH = /^(?:0|[1-9][0-9]*)$/;
/** A dotted-quad octet with a leading zero, which some parsers read as octal. */
const OCTET_WITH_LEADING_ZERO = /(?:^|\.)0[0-9]/;
const WHITESPACE = /\s/u;

/** All-ones in the low `hostBits` bits. */
export function hostMask(hostBits: number): bigint {
  return (1n << BigInt(hostBits)) - 1n;
}

/** The first address of the `/prefixLength` network that holds `address`. */
export function networkStart(address: bigint, prefixLength: number, bits: number): bigint {
  return address & ~hostMask(bits - prefixLength);
}

/** The value of one address (no prefix), or why it is not one. */
function readAddress(text: string, version: IpVersion): bigint | string {
  // Only the dotted-quad part (all of an IPv4 address, the tail of `::ffff:1.2.3.4`) has octets.
  const dottedQuad = text.slice(text.lastIndexOf(":") + 1);
  if (dottedQuad.includes(".") && OCTET_WITH_LEADING_ZERO.test(dottedQuad)) {
    return "an IPv4 octet has a leading zero, which is ambiguous (octal or decimal)";
  }
  try {
    const { Address4, Address6 } = ipAddress();
    return version === 4 ? new Address4(text).bigInt() : new Address6(text).bigInt();
  } catch {
    return `'${text}' is not a valid IPv${version} address`;
  }
}

/**
 * Parses a CIDR (`10.0.0.0/8`, `2001:db8::/32`) or, unless `addressOnly`, a bare address
 * (a /32 or /128). With `addressOnly`, a prefix is refused. Whitespace, zone identifiers
 * (`%eth0`), octets with leading zeros and prefix lengths out of range, signed or with
 * leading zeros (which `ip-address` accepts in IPv6: `/048`) are refused.
 */
export function parseNetwork(text: string, addressOnly = false): ParseOutcome {
  if (WHITESPACE.test(text)) return { ok: false, reason: "it must not contain whitespace" };
  if (text.includes("%")) {
    return { ok: false, reason: "zone identifiers (`%eth0`) are not accepted" };
  }
  const parts = text.split("/");
  if (addressOnly && parts.length > 1) {
    return { ok: false, reason: "an address is expected, without a '/' prefix length" };
  }
  if (parts.length > 2) return { ok: false, reason: "it has more than one '/'" };
  const [addressText = "", prefixText] = parts;
  const version: IpVersion = addressText.includes(":") ? 6 : 4;
  const bits = ADDRESS_BITS[version];

  let prefixLength = bits;
  if (prefixText !== undefined) {
    if (!PREFIX_LENGTH.test(prefixText)) {
      return {
        ok: false,
        reason: `the prefix length '${prefixText}' must be a whole number from 0 to ${bits}, without sign or leading zeros`,
      };
    }
    prefixLength = Number(prefixText);
    if (prefixLength > bits) {
      return {
        ok: false,
        reason: `the prefix length ${prefixText} is out of range for IPv${version} (0 to ${bits})`,
      };
    }
  }
  const address = readAddress(addressText, version);
  if (typeof address === "string") return { ok: false, reason: address };
  return { ok: true, network: { version, address, prefixLength } };
}

/** Dotted decimal of a 32-bit address, written out (the library re-parses its own output). */
function dottedQuad(value: bigint): string {
  const n = Number(value);
  return `${n >>> 24}.${(n >>> 16) & 255}.${(n >>> 8) & 255}.${n & 255}`;
}

/**
 * RFC 5952 text of a 128-bit address: lowercase hex groups without leading zeros, the first
 * longest run of two or more zero groups as `::`.
 */
function rfc5952(value: bigint): string {
  const groups: number[] = [];
  for (const half of [value >> 64n, value & 0xffff_ffff_ffff_ffffn]) {
    const high = Number(half >> 32n);
    const low = Number(half & 0xffff_ffffn);
    groups.push(high >>> 16, high & 0xffff, low >>> 16, low & 0xffff);
  }
  let runStart = -1;
  let runLength = 0;
  for (let i = 0; i < 8; ) {
    if (groups[i] !== 0) {
      i++;
      continue;
    }
    let end = i;
    while (end < 8 && groups[end] === 0) end++;
    if (end - i > runLength) {
      runStart = i;
      runLength = end - i;
    }
    i = end;
  }
  const hex = (from: number, to: number) =>
    groups
      .slice(from, to)
      .map((group) => group.toString(16))
      .join(":");
  if (runLength < 2) return hex(0, 8);
  return `${hex(0, runStart)}::${hex(runStart + runLength, 8)}`;
}

/**
 * The canonical text of an address: dotted decimal for IPv4; RFC 5952 for IPv6, with
 * IPv4-mapped addresses in the mixed notation of RFC 5952 section 5 (`::ffff:1.2.3.4`).
 *
 * @example
 * formatAddress(6, 0xffff_0102_0304n); // "::ffff:1.2.3.4"
 */
export function formatAddress(version: IpVersion, value: bigint): string {
  if (version === 4) return dottedQuad(value);
  if (value >> 32n === 0xffffn) return `::ffff:${dottedQuad(value & 0xffff_ffffn)}`;
  return rfc5952(value);
}

export function formatCidr(version: IpVersion, start: bigint, prefixLength: number): string {
  return `${formatAddress(version, start)}/${prefixLength}`;
}

/**
 * Items parsed by validation, for the handler that runs right after it: a memo of a pure
 * function, so each item is parsed once per request. Cleared when full, so it stays small.
 */
const parsedItems = new Map<string, ParseOutcome>();
const PARSED_ITEMS_MAX = 4096;

/** {@link parseNetwork}, remembered for the handler that follows validation. */
export function parseOnce(text: string, addressOnly = false): ParseOutcome {
  const key = addressOnly ? `a ${text}` : text;
  let outcome = parsedItems.get(key);
  if (outcome === undefined) {
    outcome = parseNetwork(text, addressOnly);
    if (parsedItems.size >= PARSED_ITEMS_MAX) parsedItems.clear();
    parsedItems.set(key, outcome);
  }
  return outcome;
}

/** The parsed value of a text the input schema has accepted. */
export function parsed(text: string, addressOnly = false): ParsedNetwork {
  const outcome = parseOnce(text, addressOnly);
  // The input schema refused every text this would reject.
  if (!outcome.ok) throw new Error(`unreachable: '${text}' passed validation`);
  return outcome.network;
}

/**
 * A string parameter holding an IPv4 or IPv6 network (CIDR or bare address) or, with
 * `addressOnly`, an address; refused with a 422 saying what is wrong.
 */
export function ipText(description: string, addressOnly = false) {
  const what = addressOnly ? "address" : "network";
  return z
    .string()
    .min(1)
    .max(MAX_ITEM_LENGTH)
    .superRefine((text, ctx) => {
      if (text.length === 0 || text.length > MAX_ITEM_LENGTH) return; // already reported
      const outcome = parseOnce(text, addressOnly);
      if (!outcome.ok) {
        ctx.addIssue({
          code: "custom",
          input: text,
          message: `'${text}' is not a valid IPv4 or IPv6 ${what}: ${outcome.reason}`,
        });
      }
    })
    .describe(description);
}
