/**
 * The log destination when its reader stalls: lines wait in memory up to a bound, then
 * are dropped and counted, instead of growing the heap until the process dies. A fifo
 * whose reader does not read stands in for a stalled log collector.
 */
import { execFileSync } from "node:child_process";
import {
  closeSync,
  constants,
  mkdtempSync,
  openSync,
  readFileSync,
  readSync,
  rmSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, it } from "vitest";
import { logDestination } from "./log-destination.js";

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
    const destination = logDestination((lines) => (dropped += lines), { dest: fifo, maxBytes });
    try {
      await new Promise((resolve) => destination.sink.once("ready", resolve));
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
        destination.sink.once("close", resolve);
        destination.end();
      });
      clearInterval(drain);
      closeSync(reader);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);

it("lines are handed on in chunks: a lone line within the chunk delay, and whatever waits at exit", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ucs-log-"));
  try {
    const file = path.join(dir, "log");
    const destination = logDestination(() => {}, { dest: file });
    await new Promise((resolve) => destination.sink.once("ready", resolve));
    destination.write("one\n");
    expect(readFileSync(file, "utf8")).toBe("");
    await new Promise((resolve) => setTimeout(resolve, 500));
    expect(readFileSync(file, "utf8")).toBe("one\n");
    destination.end();

    // A process that logs and exits at once still writes every line.
    const exiting = path.join(dir, "exit-log");
    const module = new URL("./log-destination.ts", import.meta.url).href;
    execFileSync(process.execPath, [
      "--import",
      "tsx",
      "--input-type=module",
      "-e",
      `const { logDestination } = await import(${JSON.stringify(module)});
       const d = logDestination(() => {}, { dest: ${JSON.stringify(exiting)} });
       d.sink.once("ready", () => { for (let i = 0; i < 3; i++) d.write("line " + i + "\\n"); process.exit(0); });`,
    ]);
    expect(readFileSync(exiting, "utf8")).toBe("line 0\nline 1\nline 2\n");
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it("lines that arrive while a chunk is being written go on together, in one write, once it drains", async () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ucs-log-"));
  try {
    const file = path.join(dir, "log");
    const destination = logDestination(() => {}, { dest: file });
    await new Promise((resolve) => destination.sink.once("ready", resolve));
    const writes: number[] = [];
    destination.sink.on("write", (bytes: number) => writes.push(bytes));
    const line = `${JSON.stringify({ level: 30, msg: "request", path: "/v1/math/sum" })}\n`;
    // The first 4 KB go on at once; the next 256 KB arrive while that write is in flight.
    const lines = Math.ceil((260 * 1024) / line.length);
    for (let i = 0; i < lines; i += 1) destination.write(line);
    await new Promise((resolve) => destination.sink.once("drain", resolve));
    await new Promise((resolve) => destination.sink.once("drain", resolve));

    expect(writes).toHaveLength(2);
    expect(writes[0]).toBeLessThan(8 * 1024);
    expect(writes.reduce((sum, bytes) => sum + bytes, 0)).toBe(lines * line.length);
    expect(readFileSync(file, "utf8")).toBe(line.repeat(lines));
    destination.end();
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

it.runIf(process.platform === "linux")(
  "after a stall with lines of more bytes than characters, logging resumes once the reader reads",
  async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), "ucs-log-"));
    const fifo = path.join(dir, "log");
    execFileSync("mkfifo", [fifo]);
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    let dropped = 0;
    const destination = logDestination((lines) => (dropped += lines), {
      dest: fifo,
      maxBytes: 256 * 1024,
    });
    const chunk = Buffer.alloc(1024 * 1024);
    let read = "";
    const drain = () => {
      try {
        for (let bytes = readSync(reader, chunk); bytes > 0; bytes = readSync(reader, chunk)) {
          read += chunk.toString("utf8", 0, bytes);
        }
      } catch {
        // EAGAIN: empty for now.
      }
    };
    try {
      await new Promise((resolve) => destination.sink.once("ready", resolve));
      // A shortened long path ends in "…": three bytes in UTF-8, one character.
      const line = `{"path":"/${"a".repeat(200)}…","msg":"request"}\n`;
      for (let i = 0; i < 4000; i += 1) destination.write(line);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(dropped).toBeGreaterThan(0);

      const reading = setInterval(drain, 5);
      await new Promise((resolve) => setTimeout(resolve, 500));
      destination.write("after the stall\n");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      clearInterval(reading);
      drain();
      expect(read.endsWith("after the stall\n")).toBe(true);
      // Every line kept was written whole, in order.
      expect(
        read
          .split("\n")
          .slice(0, -2)
          .every((kept) => `${kept}\n` === line),
      ).toBe(true);
      expect(read.split("\n").length - 2 + dropped).toBe(4000);
    } finally {
      const reading = setInterval(drain, 5);
      await new Promise((resolve) => {
        destination.sink.once("close", resolve);
        destination.end();
      });
      clearInterval(reading);
      closeSync(reader);
      rmSync(dir, { recursive: true, force: true });
    }
  },
);
