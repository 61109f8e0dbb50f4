import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples, locTypes, problemsOf } from "../_testing.js";
import dataSize from "./data-size.js";

const run = (value: string, from: string, to: string) =>
  execute(dataSize, { value, from, to }) as { decimal: string; isExact: boolean };

describe("units/data-size", () => {
  itAnswersItsExamples(dataSize);

  it.each([
    ["1", "B", "bit", "8"],
    ["1", "KiB", "B", "1024"],
    ["1", "kB", "B", "1000"],
    ["1", "YiB", "B", "1208925819614629174706176"],
    ["1", "YB", "bit", "8000000000000000000000000"],
    ["1", "Gibit", "Mibit", "1024"],
    ["1", "MiB", "Mbit", "8.388608"],
    [
      "1",
      "bit",
      "YiB",
      "0.00000000000000000000000010339757656912845935892608650874535669572651386260986328125",
    ],
    ["1.5", "GB", "GiB", "1.3969838619232177734375"],
  ])("%s %s = %s %s exactly", (value, from, to, decimal) => {
    expect(run(value, from, to)).toMatchObject({ decimal, isExact: true });
  });

  it("tells MB (megabyte) from Mbit (megabit) and refuses other spellings", () => {
    expect(run("1", "MB", "Mbit").decimal).toBe("8");
    expect(locTypes(problemsOf(dataSize, { value: "1", from: "mb", to: "B" }))).toEqual([
      [["from"], "enum"],
    ]);
  });
});
