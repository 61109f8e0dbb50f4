import { describe, expect, it } from "vitest";
import { faultHandlers, thrownByOperatorCode } from "./faults.js";

const DIRS = ["/srv/ops"];

/** An Error whose stack is exactly `frames`. */
const thrown = (...frames: string[]) =>
  Object.assign(new Error("x"), {
    stack: ["Error: x", ...frames.map((f) => `    at ${f}`)].join("\n"),
  });

describe("thrownByOperatorCode", () => {
  it("an operator module's timer, with Node's frames below it", () => {
    const error = thrown(
      "Timeout._onTimeout (file:///srv/ops/ext/a.js?ucs-operation&content=ab12:3:40)",
      "listOnTimeout (node:internal/timers:608:17)",
      "process.processTimers (node:internal/timers:543:7)",
    );
    expect(thrownByOperatorCode(error, DIRS)).toBe(true);
    expect(thrownByOperatorCode(thrown("/srv/ops/ext/_helper.js:1:2"), DIRS)).toBe(true);
  });

  it.each([
    ["the service's own frame", ["f (/app/dist/src/reload.js:1:2)", "/srv/ops/ext/a.js:3:4"]],
    ["a dependency's frame", ["/app/node_modules/fastify/x.js:1:2"]],
    ["another folder that only starts alike", ["/srv/ops-other/a.js:1:2"]],
    ["Node's frames only", ["listOnTimeout (node:internal/timers:608:17)"]],
    ["a frame with no location", ["new Promise (<anonymous>)", "/srv/ops/a.js:1:2"]],
    [
      "a stack cut at the limit",
      Array.from({ length: Error.stackTraceLimit }, () => "/srv/ops/a.js:1:2"),
    ],
  ])("not with %s", (_what, frames) => {
    expect(thrownByOperatorCode(thrown(...frames), DIRS)).toBe(false);
  });

  it("not for a thrown value that is no Error, nor without operator folders", () => {
    expect(thrownByOperatorCode("a string", DIRS)).toBe(false);
    expect(thrownByOperatorCode(thrown("/srv/ops/a.js:1:2"), [])).toBe(false);
  });
});

describe("faultHandlers", () => {
  const setup = () => {
    const lines: { level: string; message: string }[] = [];
    const exits: number[] = [];
    const log = {
      error: (_object: object, message: string) => lines.push({ level: "error", message }),
      fatal: (_object: object, message: string) => lines.push({ level: "fatal", message }),
    };
    return { lines, exits, handlers: faultHandlers(log, DIRS, (code) => exits.push(code)) };
  };

  it("logs an unhandled rejection as an error and serves on", () => {
    const { lines, exits, handlers } = setup();
    handlers.rejection(new Error("floating"));
    expect(lines).toEqual([
      { level: "error", message: "unhandled promise rejection; the process serves on" },
    ]);
    expect(exits).toEqual([]);
  });

  it("survives an operator module's own throw; exits 1 on any other", () => {
    const { lines, exits, handlers } = setup();
    handlers.exception(thrown("Timeout._onTimeout (file:///srv/ops/a.js:1:2)"));
    expect(exits).toEqual([]);
    handlers.exception(thrown("f (/app/dist/src/reload.js:1:2)"));
    expect(exits).toEqual([1]);
    expect(lines.map((line) => line.level)).toEqual(["error", "fatal"]);
  });
});
