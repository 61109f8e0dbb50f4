/**
 * What `npm start` runs, read from package.json's `start` script, so the bench, the memory
 * probe and the process tests start the service exactly as production does.
 */
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export interface StartCommand {
  /** Variables set in front of node (`NAME=value node …`): malloc's settings. */
  env: Record<string, string>;
  /** Node's own flags (heap caps, V8 flags), in order. */
  nodeFlags: string[];
}

// `exec`: the shell npm runs the script in becomes node, so npm's SIGTERM reaches the
// server itself rather than a shell that would die and leave node running.
const START = /^((?:[A-Z_][A-Z0-9_]*=\S* )*)(?:exec )?node ((?:--\S+ )*)dist\/src\/server\.js$/;

/** Parses a start script of the form `[NAME=value …] [exec] node [--flag …] dist/src/server.js`. */
export function parseStartScript(script: string): StartCommand {
  const match = START.exec(script);
  if (!match) throw new Error(`package.json's start script has an unexpected form: ${script}`);
  const words = (text: string | undefined) => (text ?? "").split(" ").filter(Boolean);
  const env: Record<string, string> = {};
  for (const pair of words(match[1])) {
    const equals = pair.indexOf("=");
    env[pair.slice(0, equals)] = pair.slice(equals + 1);
  }
  return { env, nodeFlags: words(match[2]) };
}

/** The start command of this repository's package.json. */
export function startCommand(): StartCommand {
  const file = fileURLToPath(new URL("../../package.json", import.meta.url));
  const pkg = JSON.parse(readFileSync(file, "utf8")) as { scripts: { start?: string } };
  return parseStartScript(pkg.scripts.start ?? "");
}
