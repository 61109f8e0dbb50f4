/**
 * Where the log goes: stdout in chunks, written asynchronously, bounded in memory when
 * stdout falls behind, and flushed at exit.
 */
import pino from "pino";

/** Memory for log lines while stdout is slower than the log; lines beyond are dropped. */
export const LOG_BUFFER_BYTES = 16 * 1024 * 1024;

/** Lines are handed to the stream in chunks of about this many characters... */
const CHUNK_CHARS = 4096;
/** ...or once the first line of a chunk has waited this long. */
const CHUNK_DELAY_MS = 200;

type Sink = ReturnType<typeof pino.destination>;

/** Destinations with lines not yet handed on, flushed when the process exits. */
const unflushed = new Set<BatchedDestination>();
let exitHookInstalled = false;

/**
 * Pino's stream: lines gathered into chunks of about 4 KB, handed to a sonic-boom stream
 * that writes them asynchronously. While a chunk is being written, lines wait here and go
 * on together once the sink drains: one write per round, however busy the event loop.
 * Sonic-boom would instead cut them into 16 KB writes, one per event-loop turn, which a
 * loaded service outpaced (a backlog of megabytes, held long enough to reach the old
 * generation); it also measures the text it holds on every write.
 */
export class BatchedDestination {
  private pending = "";
  /** Characters handed to the sink since it last drained: while any, a write is under way. */
  private handedChars = 0;
  private timer: NodeJS.Timeout | undefined = undefined;
  private readonly flushLater = () => {
    this.timer = undefined;
    if (this.handedChars === 0) this.handOn();
  };
  private readonly drained = () => {
    this.handedChars = 0;
    if (this.pending.length >= CHUNK_CHARS) this.handOn();
    else if (this.pending.length > 0) this.handOnLater();
  };

  /**
   * `maxChars` bounds the characters waiting here and with the sink together: counted in
   * characters, not bytes, so a check costs nothing per line.
   */
  constructor(
    readonly sink: Sink,
    private readonly maxChars: number,
    private readonly onDrop: (lines: number) => void,
  ) {
    sink.on("drain", this.drained);
  }

  write(line: string): boolean {
    if (this.handedChars + this.pending.length + line.length > this.maxChars) {
      this.onDrop(1);
      return true;
    }
    this.pending += line;
    if (this.pending.length >= CHUNK_CHARS && this.handedChars === 0) this.handOn();
    else this.handOnLater();
    return true;
  }

  /** Pino's `logger.flush()`. */
  flush(callback?: (error?: Error) => void): void {
    this.handOn();
    this.sink.flush(callback);
  }

  /** Everything written so far reaches the file descriptor before this returns (at exit). */
  flushSync(): void {
    this.handOn();
    this.sink.flushSync();
  }

  end(): void {
    this.handOn();
    this.sink.end();
  }

  private handOnLater(): void {
    if (this.timer !== undefined) return;
    this.timer = setTimeout(this.flushLater, CHUNK_DELAY_MS);
    this.timer.unref();
    unflushed.add(this);
  }

  private handOn(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    unflushed.delete(this);
    if (this.pending.length === 0) return;
    const chunk = this.pending;
    this.pending = "";
    this.handedChars += chunk.length;
    this.sink.write(chunk);
  }
}

function flushAllAtExit(): void {
  for (const destination of unflushed) {
    try {
      destination.flushSync();
    } catch {
      // A closed or broken stdout: nothing more can be written.
    }
  }
}

/**
 * Where the log goes: stdout (or `dest`), in chunks (see {@link BatchedDestination}),
 * written asynchronously, one write at a time, each taking every line that waits. Should
 * the destination fall behind, lines wait up to `maxBytes` of memory (half as many
 * characters, each taking at most two bytes); lines beyond are dropped and counted
 * (`onDrop`). Whatever waits is written out when the process exits: a reader that has
 * stopped reading holds the exit until it reads again (or the process is killed).
 *
 * @example
 * Fastify({ logger: { stream: logDestination((lines) => metrics.logLinesDropped.inc(lines)) } });
 */
export function logDestination(
  onDrop: (lines: number) => void,
  { dest = 1, maxBytes = LOG_BUFFER_BYTES }: { dest?: number | string; maxBytes?: number } = {},
): BatchedDestination {
  // No bound in the sink: what it holds is bounded here, in whole lines.
  const sink = pino.destination({ dest, sync: false, minLength: 0 });
  if (!exitHookInstalled) {
    exitHookInstalled = true;
    process.once("exit", flushAllAtExit);
  }
  return new BatchedDestination(sink, Math.floor(maxBytes / 2), onDrop);
}
