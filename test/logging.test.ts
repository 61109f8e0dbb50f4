/**
 * The log destination when its reader stalls: lines wait in memory up to a bound, then
 * are dropped and counted, instead of growing the heap until the process dies. A fifo
 * whose reader does not read stands in for a stalled log collector.
 */
import { execFileSync } from "node:child_process";
import { closeSync, constants, mkdtempSync, openSync, readSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { logDestination } from "../src/http/observability.js";

it.runIf(process.platform === "linux")(
  "a stalled destination holds at most maxBytes of lines; the rest are dropped and counted",
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ucs-log-"));
    const fifo = path.join(dir, "log");
    execFileSync("mkfifo", [fifo]);
    // Opened, never read while measuring: writes succeed until the pipe is full.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const maxBytes = 256 * 1024;
    let dropped = 0;
    const destination = logDestination(() => dropped++, { dest: fifo, maxBytes });
    try {
      await new Promise((resolve) => destination.once("ready", resolve));
      const line = `${JSON.stringify({ level: 30, msg: "request", path: "/v1/math/sum" })}\n`;
      const lines = Math.ceil((4 * 1024 * 1024) / line.length); // 4 MB, far past pipe + bound
      for (let i = 0; i < lines; i += 1) destination.write(line);
      // Let the writes in flight settle: the pipe fills, then nothing moves.
      await new Promise((resolve) => setTimeout(resolve, 300));

      expect(dropped).toBeGreaterThan(0);
      // What was kept (in the pipe and in memory) is bounded by the pipe plus maxBytes.
      const kept = (lines - dropped) * line.length;
      expect(kept).toBeLessThanOrEqual(maxBytes + 1024 * 1024);
    } finally {
      // Read what is left, so the destination can flush and close before the fifo goes.
      const chunk = Buffer.alloc(64 * 1024);
      const drain = setInterval(() => {
        try {
          while (readSync(reader, chunk) > 0);
        } catch {
          // EAGAIN: empty for now.
        }
      }, 5);
      await new Promise((resolve) => {
        destination.once("close", resolve);
        destination.end();
      });
      clearInterval(drain);
      closeSync(reader);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
