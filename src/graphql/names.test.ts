import { describe, expect, it } from "vitest";
import { camelCase, capitalize, graphqlFieldOf, isEnumName, pascalCase } from "./names.js";

describe("camelCase and pascalCase", () => {
  it.each([
    ["checksum/md5", "checksumMd5", "ChecksumMd5"],
    ["is-leap-year", "isLeapYear", "IsLeapYear"],
    ["would-you-rather", "wouldYouRather", "WouldYouRather"],
    ["detect", "detect", "Detect"],
    ["snake_case/x-y", "snakeCaseXY", "SnakeCaseXY"],
    ["--leading//doubled--", "leadingDoubled", "LeadingDoubled"],
    ["", "", ""],
  ])("%j → %j, %j", (text, camelName, pascalName) => {
    expect(camelCase(text)).toBe(camelName);
    expect(pascalCase(text)).toBe(pascalName);
  });
});

describe("capitalize", () => {
  it.each([
    ["sum", "Sum"],
    ["Sum", "Sum"],
    ["", ""],
    ["2x", "2x"],
  ])("%j → %j", (word, expected) => {
    expect(capitalize(word)).toBe(expected);
  });
});

describe("graphqlFieldOf", () => {
  it.each([
    ["crypto", "checksum/md5", { area: "crypto", field: "checksumMd5" }],
    ["datetime", "is-leap-year", { area: "datetime", field: "isLeapYear" }],
    ["some-area", "x", { area: "someArea", field: "x" }],
  ])("%s/%s → %j", (area, name, expected) => {
    expect(graphqlFieldOf({ area, name })).toEqual(expected);
  });
});

describe("isEnumName", () => {
  it.each([
    ["utf8", true],
    ["_private", true],
    ["HEX", true],
    ["a1_b2", true],
    ["utf-8", false],
    ["1st", false],
    ["", false],
    ["with space", false],
    ["true", false],
    ["false", false],
    ["null", false],
    ["True", true],
  ])("%j → %s", (value, expected) => {
    expect(isEnumName(value)).toBe(expected);
  });
});
