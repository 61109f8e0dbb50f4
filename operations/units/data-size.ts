import { defineOperation } from "#kit";
import { EXACTNESS, linearConversion, type Unit, unitTable } from "./_units.js";

/** Each unit in bits, exactly (definitions in the table of the description). */
const UNITS = {
  bit: { factor: "1", name: "bit" },
  B: { factor: "8", name: "byte (8 bits)" },
  kB: { factor: "8000", name: "kB, 10^3 bytes (SI)" },
  MB: { factor: "8000000", name: "MB, 10^6 bytes (SI)" },
  GB: { factor: "8000000000", name: "GB, 10^9 bytes (SI)" },
  TB: { factor: "8000000000000", name: "TB, 10^12 bytes (SI)" },
  PB: { factor: "8000000000000000", name: "PB, 10^15 bytes (SI)" },
  EB: { factor: "8000000000000000000", name: "EB, 10^18 bytes (SI)" },
  ZB: { factor: "8000000000000000000000", name: "ZB, 10^21 bytes (SI)" },
  YB: { factor: "8000000000000000000000000", name: "YB, 10^24 bytes (SI)" },
  KiB: { factor: "8192", name: "KiB, 2^10 bytes (IEC)" },
  MiB: { factor: "8388608", name: "MiB, 2^20 bytes (IEC)" },
  GiB: { factor: "8589934592", name: "GiB, 2^30 bytes (IEC)" },
  TiB: { factor: "8796093022208", name: "TiB, 2^40 bytes (IEC)" },
  PiB: { factor: "9007199254740992", name: "PiB, 2^50 bytes (IEC)" },
  EiB: { factor: "9223372036854775808", name: "EiB, 2^60 bytes (IEC)" },
  ZiB: { factor: "9444732965739290427392", name: "ZiB, 2^70 bytes (IEC)" },
  YiB: { factor: "9671406556917033397649408", name: "YiB, 2^80 bytes (IEC)" },
  kbit: { factor: "1000", name: "kbit, 10^3 bits (SI)" },
  Mbit: { factor: "1000000", name: "Mbit, 10^6 bits (SI)" },
  Gbit: { factor: "1000000000", name: "Gbit, 10^9 bits (SI)" },
  Tbit: { factor: "1000000000000", name: "Tbit, 10^12 bits (SI)" },
  Pbit: { factor: "1000000000000000", name: "Pbit, 10^15 bits (SI)" },
  Kibit: { factor: "1024", name: "Kibit, 2^10 bits (IEC)" },
  Mibit: { factor: "1048576", name: "Mibit, 2^20 bits (IEC)" },
  Gibit: { factor: "1073741824", name: "Gibit, 2^30 bits (IEC)" },
  Tibit: { factor: "1099511627776", name: "Tibit, 2^40 bits (IEC)" },
  Pibit: { factor: "1125899906842624", name: "Pibit, 2^50 bits (IEC)" },
} as const satisfies Record<string, Unit>;

export default defineOperation({
  area: "units",
  name: "data-size",
  summary: "Convert data sizes: bits, bytes, SI (kB, MB…) and IEC (KiB, MiB…) prefixes",
  description: [
    "Converts `value` from one unit of digital information to another. SI prefixes are powers of 1000 (`kB` = 1000 bytes, `Mbit` = 10^6 bits) and IEC prefixes powers of 1024 (`KiB` = 1024 bytes, `Mibit` = 2^20 bits), as IEC 80000-13 defines them; a byte is 8 bits. Unit names are case-sensitive (`MB` megabyte, `Mbit` megabit).",
    unitTable(UNITS, "bits"),
    EXACTNESS,
  ].join("\n\n"),
  ...linearConversion(UNITS),
  examples: [
    {
      title: "A gibibyte in megabytes",
      input: { value: "1", from: "GiB", to: "MB" },
      output: { result: 1073.741824, decimal: "1073.741824", isExact: true, from: "GiB", to: "MB" },
    },
    {
      title: "A 100 Mbit/s line moves 12.5 MB a second",
      input: { value: "100", from: "Mbit", to: "MB" },
      output: { result: 12.5, decimal: "12.5", isExact: true, from: "Mbit", to: "MB" },
    },
    {
      title: "A terabyte drive in tebibytes",
      input: { value: "1", from: "TB", to: "TiB" },
      output: {
        result: 0.9094947017729282,
        decimal: "0.9094947017729282379150390625",
        isExact: true,
        from: "TB",
        to: "TiB",
      },
    },
  ],
});
