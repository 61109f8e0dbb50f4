/**
 * The repository never cites a file it does not hold: the public contract (API.md) lives
 * outside it, so these pages say what they mean instead of pointing there.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";

const PAGES = [
  "README.md",
  "docs/errors.md",
  "docs/deployment.md",
  "docs/configuration.md",
  "docs/writing-an-operation.md",
];

describe("pages that stand on their own", () => {
  it.each(PAGES)("%s cites no API.md", (page) => {
    const text = readFileSync(new URL(`../${page}`, import.meta.url), "utf8");
    // docs/api.md, the generated reference, is here; API.md (upper case) is not.
    expect(text.match(/\bAPI\.md\b/g) ?? []).toEqual([]);
  });
});
