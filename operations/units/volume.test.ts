import { describe, expect, it } from "vitest";
import { execute } from "../../src/core/runner.js";
import { itAnswersItsExamples } from "../_testing.js";
import volume from "./volume.js";

const run = (value: string, from: string, to: string) =>
  execute(volume, { value, from, to }) as { decimal: string; isExact: boolean };

describe("units/volume", () => {
  itAnswersItsExamples(volume);

  it.each([
    ["1", "us_gal", "us_qt", "4"],
    ["1", "us_gal", "us_pt", "8"],
    ["1", "us_gal", "us_cup", "16"],
    ["1", "us_gal", "us_floz", "128"],
    ["1", "us_floz", "us_tbsp", "2"],
    ["1", "us_tbsp", "us_tsp", "3"],
    ["1", "us_gal", "in3", "231"],
    ["1", "bbl", "us_gal", "42"],
    ["1", "imp_gal", "imp_pt", "8"],
    ["1", "imp_gal", "imp_floz", "160"],
    ["1", "ft3", "in3", "1728"],
    ["1", "m3", "l", "1000"],
    ["1", "cm3", "ml", "1"],
  ])("%s %s = %s %s exactly", (value, from, to, decimal) => {
    expect(run(value, from, to)).toMatchObject({ decimal, isExact: true });
  });
});
