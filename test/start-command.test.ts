/**
 * `npm start` and the container image run the service the same way: the same malloc
 * settings and node flags. The bench, the memory probe and the process tests read them from
 * package.json (scripts/lib/start-command.ts), so what they measure is what ships.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseStartScript, startCommand } from "../scripts/lib/start-command.js";

const dockerfile = readFileSync(new URL("../Dockerfile", import.meta.url), "utf8");
const runtimeStage = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));

describe("the start command", () => {
  it.each([
    ["node dist/src/server.js", {}, []],
    ["node --a=1 --b dist/src/server.js", {}, ["--a=1", "--b"]],
    ["X_Y=2 node --a dist/src/server.js", { X_Y: "2" }, ["--a"]],
    ["A=1 B= node dist/src/server.js", { A: "1", B: "" }, []],
    ["A=1 exec node --a dist/src/server.js", { A: "1" }, ["--a"]],
  ])("reads %s", (script, env, nodeFlags) => {
    expect(parseStartScript(script)).toEqual({ env, nodeFlags });
  });

  it.each(["node src/server.ts", "cd x && node dist/src/server.js", "node dist/src/server.js --x"])(
    "refuses %s rather than guess",
    (script) => {
      expect(() => parseStartScript(script)).toThrow(/unexpected form/);
    },
  );

  it("caps the heap and sets malloc's arenas in npm start", () => {
    const start = startCommand();
    expect(start.nodeFlags).toContain("--max-old-space-size=128");
    expect(start.env).toEqual({ MALLOC_ARENA_MAX: "2", MALLOC_MMAP_THRESHOLD_: "131072" });
  });

  it("execs node, so that npm's SIGTERM reaches the server rather than a shell", () => {
    const pkg = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8"));
    expect(pkg.scripts.start).toMatch(/^(?:[A-Z_][A-Z0-9_]*=\S* )*exec node /);
  });

  it("is the container image's command and environment", () => {
    const start = startCommand();
    const cmd = /^CMD (\[.*\])$/m.exec(runtimeStage)?.[1];
    expect(JSON.parse(cmd ?? "[]")).toEqual(["node", ...start.nodeFlags, "dist/src/server.js"]);
    const env = [...runtimeStage.matchAll(/^ENV (.+)$/gm)].flatMap((m) => (m[1] ?? "").split(" "));
    for (const [name, value] of Object.entries(start.env))
      expect(env).toContain(`${name}=${value}`);
  });
});
