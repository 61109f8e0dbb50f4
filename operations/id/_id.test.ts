import { describe, expect, it } from "vitest";
import { CalculationError } from "#kit";
import { counterStart, crockford, toBigInt, uuidText } from "./_id.js";

describe("id/_id", () => {
  it("keeps a counter start that fits the batch", () => {
    expect(counterStart(5n, 8, 10, false)).toBe(5n);
    expect(counterStart(246n, 8, 10, true)).toBe(246n); // 246 + 9 = 255 fits
  });

  it("clears the top bit of drawn bits that would overflow, and refuses given ones", () => {
    expect(counterStart(250n, 8, 10, false)).toBe(122n);
    expect(() => counterStart(250n, 8, 10, true)).toThrow(CalculationError);
  });

  it("writes Crockford base32 and UUID text", () => {
    expect(crockford(0n, 3)).toBe("000");
    expect(crockford(31n * 32n + 10n, 2)).toBe("ZA");
    expect(toBigInt(Uint8Array.from([1, 0]))).toBe(256n);
    expect(uuidText(Uint8Array.from({ length: 16 }, (_, i) => i * 17))).toBe(
      "00112233-4455-6677-8899-aabbccddeeff",
    );
  });
});
