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

/**
 * A destination writing to a fifo whose reader reads only when told: it stands in for a
 * stalled log collector. `read()` takes what the pipe holds; `close()` reads until the
 * destination has flushed and closed, then removes the fifo.
 */
async function stalledFifoDestination(maxBytes: number) {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ucs-log-"));
  const fifo = path.join(dir, "log");
  execFileSync("mkfifo", [fifo]);
  // Opened, never read until asked: writes succeed until the pipe is full.
  const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const stalled = { dropped: 0, text: "" };
  const destination = logDestination((lines) => (stalled.dropped += lines), {
    dest: fifo,
    maxBytes,
  });
  await new Promise((resolve) => destination.sink.once("ready", resolve));
  const chunk = Buffer.alloc(1024 * 1024);
  const read = () => {
    try {
      for (let bytes = readSync(reader, chunk); bytes > 0; bytes = readSync(reader, chunk)) {
        stalled.text += chunk.toString("utf8", 0, bytes);
      }
    } catch {
      // EAGAIN: empty for now.
    }
  };
  const close = async () => {
    const reading = setInterval(read, 5);
    await new Promise((resolve) => {
      destination.sink.once("close", resolve);
      destination.end();
    });
    clearInterval(reading);
    closeSync(reader);
    rmSync(dir, { recursive: true, force: true });
  };
  return { destination, stalled, read, close };
}

it.runIf(process.platform === "linux")(
  "a stalled destination holds at most maxBytes of lines; the rest are dropped and counted",
  async () => {
    const maxBytes = 256 * 1024;
    const { destination, stalled, close } = await stalledFifoDestination(maxBytes);
    try {
      const line = `${JSON.stringify({ level: 30, msg: "request", path: "/v1/math/sum" })}\n`;
      const lines = Math.ceil((4 * 1024 * 1024) / line.length); // 4 MB, far past pipe + bound
      for (let i = 0; i < lines; i += 1) destination.write(line);
      // Let the writes in flight settle: the pipe fills, then nothing moves.
      await new Promise((resolve) => setTimeout(resolve, 300));

      expect(stalled.dropped).toBeGreaterThan(0);
      // What was kept (in the pipe and in memory) is bounded by the pipe plus maxBytes.
      const kept = (lines - stalled.dropped) * line.length;
      expect(kept).toBeLessThanOrEqual(maxBytes + 1024 * 1024);
    } finally {
      await close();
    }
  },
);

/** A destination writing to a file in a directory of its own. */
async function fileDestination() {
  const dir = mkdtempSync(path.join(os.tmpdir(), "ucs-log-"));
  const file = path.join(dir, "log");
  const destination = logDestination(() => {}, { dest: file });
  await new Promise((resolve) => destination.sink.once("ready", resolve));
  return { dir, file, destination };
}

it("lines are handed on in chunks: a lone line within the chunk delay, and whatever waits at exit", async () => {
  const { dir, file, destination } = await fileDestination();
  try {
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
  const { dir, file, destination } = await fileDestination();
  try {
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
    const { destination, stalled, read, close } = await stalledFifoDestination(256 * 1024);
    try {
      // A shortened long path ends in "…": three bytes in UTF-8, one character.
      const line = `{"path":"/${"a".repeat(200)}…","msg":"request"}\n`;
      for (let i = 0; i < 4000; i += 1) destination.write(line);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(stalled.dropped).toBeGreaterThan(0);

      const reading = setInterval(read, 5);
      await new Promise((resolve) => setTimeout(resolve, 500));
      destination.write("after the stall\n");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      clearInterval(reading);
      read();
      expect(stalled.text.endsWith("after the stall\n")).toBe(true);
      // Every line kept was written whole, in order.
      const kept = stalled.text.split("\n").slice(0, -2);
      expect(kept.every((text) => `${text}\n` === line)).toBe(true);
      expect(kept.length + stalled.dropped).toBe(4000);
    } finally {
      await close();
    }
  },
);
