import { describe, expect, it } from "vitest";
import {
  EXIT_FAILURE,
  EXIT_INVALID,
  EXIT_OK,
  formatValue,
  guardedIo,
  redactUrls,
  report,
  visible,
} from "./output.js";

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

describe("visible", () => {
  it.each([
    ["ESC (C0)", "\u001b[31mred", "\\x1b[31mred"],
    ["CSI (C1)", "\u009b2J", "\\u009b2J"],
    ["NUL, BEL, BS, CR and DEL", "a\u0000\u0007\b\r\u007f", "a\\x00\\x07\\x08\\x0d\\x7f"],
    ["newline and tab, which are layout", "a\n\tb", "a\n\tb"],
    ["the rest of Unicode", "é – 🙂 \u00a0", "é – 🙂 \u00a0"],
  ])("%s", (_case, text, shown) => {
    expect(visible(text)).toBe(shown);
  });
});

describe("redactUrls", () => {
  it.each([
    ["user and password", "at http://user:secret@host:3000/v1", "at http://user:***@host:3000/v1"],
    ["a token alone", "https://tok3n@host/v1", "https://***@host/v1"],
    ["no credentials", "http://host:3000/v1?a=b@c", "http://host:3000/v1?a=b@c"],
    ["an e-mail address", "write to a@example.com", "write to a@example.com"],
  ])("%s", (_case, text, shown) => {
    expect(redactUrls(text)).toBe(shown);
  });

  it("hides the given URL's credentials as written, however malformed", () => {
    expect(redactUrls("from http://us er:s ecret@host/v1", "http://us er:s ecret@host")).toBe(
      "from http://us er:***@host/v1",
    );
  });
});

describe("guardedIo: every write goes through it", () => {
  function capture(json: boolean, url?: string) {
    const written = { stdout: "", stderr: "" };
    const io = guardedIo(
      {
        stdout: { write: (text: string) => (written.stdout += text) },
        stderr: { write: (text: string) => (written.stderr += text) },
        env: {},
      },
      json,
      url,
    );
    return { io, written };
  }

  it("values in readable output and errors: control characters escaped", () => {
    const { io, written } = capture(false);
    report(io, false, 200, { text: "\u001b]0;title\u0007x", lines: "a\nb" });
    report(io, false, 404, { detail: "no \u009b2J here" });
    expect(written).toEqual({
      stdout: "text:  \\x1b]0;title\\x07x\nlines: a\nb\n",
      stderr: "Error (404): no \\u009b2J here\n",
    });
  });

  it("--json: still the same JSON, with C1 and DEL in JSON's escapes", () => {
    const { io, written } = capture(true);
    const body = { text: "\u001b[31m \u009b2J \u007f" };
    report(io, true, 200, body);
    expect(written.stdout).toBe('{"text":"\\u001b[31m \\u009b2J \\u007f"}\n');
    expect(JSON.parse(written.stdout)).toEqual(body);
  });

  it("the --url's credentials, on either stream; other URLs' on stderr only", () => {
    const { io, written } = capture(false, "http://me:pw@host");
    io.stdout.write("http://me:pw@host/x http://a:b@elsewhere/\n");
    io.stderr.write("http://me:pw@host/x http://a:b@elsewhere/\n");
    expect(written).toEqual({
      stdout: "http://me:***@host/x http://a:b@elsewhere/\n",
      stderr: "http://me:***@host/x http://a:***@elsewhere/\n",
    });
  });
});
