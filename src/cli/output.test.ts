import { describe, expect, it } from "vitest";
import { EXIT_FAILURE, EXIT_INVALID, EXIT_OK, formatValue, report } from "./output.js";

describe("formatValue", () => {
  it.each([
    ["text", "0.3", "0.3"],
    ["a number", 0.3, "0.3"],
    ["a boolean", false, "false"],
    ["null", null, "null"],
    ["a list", ["a", 1], '["a",1]'],
    ["an object", { a: 1 }, '{"a":1}'],
  ])("%s", (_case, value, expected) => {
    expect(formatValue(value)).toBe(expected);
  });
});

describe("report", () => {
  const PROBLEMS = {
    detail: [
      {
        loc: ["query", "numbers", "1"],
        msg: "Input should be a valid decimal",
        type: "float_parsing",
      },
      { loc: ["query"], msg: "Unknown parameter", type: "extra_forbidden" },
    ],
  };

  it.each([
    [
      "an answer, readable",
      false,
      200,
      { result: 0.3, decimal: "0.3" },
      undefined,
      EXIT_OK,
      "result:  0.3\ndecimal: 0.3\n",
      "",
    ],
    ["an answer, as JSON", true, 200, { result: 0.3 }, undefined, EXIT_OK, '{"result":0.3}\n', ""],
    [
      "a remote answer, as its raw body",
      true,
      200,
      { a: 1 },
      '{ "a": 1 }',
      EXIT_OK,
      '{ "a": 1 }\n',
      "",
    ],
    ["a scalar answer", false, 200, "text", undefined, EXIT_OK, "text\n", ""],
    [
      "invalid input, one problem a line",
      false,
      422,
      PROBLEMS,
      undefined,
      EXIT_INVALID,
      "",
      "Invalid input:\n  numbers.1: Input should be a valid decimal [float_parsing]\n  (request): Unknown parameter [extra_forbidden]\n",
    ],
    [
      "invalid input, as JSON on stdout",
      true,
      422,
      PROBLEMS,
      undefined,
      EXIT_INVALID,
      `${JSON.stringify(PROBLEMS)}\n`,
      "",
    ],
    [
      "not found",
      false,
      404,
      { detail: "no such id" },
      undefined,
      EXIT_FAILURE,
      "",
      "Error (404): no such id\n",
    ],
    ["a proxy's page", false, 502, "<html>", "<html>", EXIT_FAILURE, "", "Error (502): <html>\n"],
  ])("%s", (_case, json, status, body, raw, code, stdout, stderr) => {
    const written = { stdout: "", stderr: "" };
    const io = {
      stdout: { write: (text: string) => (written.stdout += text) },
      stderr: { write: (text: string) => (written.stderr += text) },
      env: {},
    };
    expect(report(io, json, status, body, raw)).toBe(code);
    expect(written).toEqual({ stdout, stderr });
  });
});
