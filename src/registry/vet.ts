/**
 * Vetting an operator's module before the serving process imports it: a worker thread
 * (its own heap and event loop) imports the module and runs its checks, with a time limit
 * (the worker is terminated) and a heap limit. A module that never finishes, runs the
 * worker out of memory, ends its thread, leaves a rejection or an exception behind at
 * import, or declares more parameters or examples than the bounds below is refused, and
 * the serving process never imports it. A worker shares the process: this stops accidents
 * and careless modules, not a module written to tell the worker from the serving thread.
 */
import { fork } from "node:child_process";
import { EventEmitter } from "node:events";
import { createRequire } from "node:module";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";

/**
 * Whether a worker thread takes module hooks registered in it (tsx's): Node 22's do not,
 * so there a vetting that needs TypeScript runs in a child process instead (its own
 * heap too, bounded by --max-old-space-size; slower to start).
 */
const WORKER_TAKES_HOOKS = Number(process.versions.node.split(".")[0]) >= 23;

/** Parameters an operation may declare: each is a REST query field, a GraphQL argument, an OpenAPI entry. */
export const MAX_PARAMETERS = 64;

/** Examples an operation may declare: each runs at every load and is documented. */
export const MAX_EXAMPLES = 32;

/** How long one module's import and checks may take in the worker before it is stopped. */
export const VET_TIMEOUT_MS = 10_000;

/**
 * How long the worker may take to start (tsx, the kit, the checks) before its first module:
 * no module's code runs yet, so only a very slow machine gets here.
 */
const BOOT_TIMEOUT_MS = 30_000;

/**
 * The worker's old-generation heap, in MB: four times what the kit and an ordinary module
 * need (16 MB is enough), not room for one that builds thousands of schemas. It comes on
 * top of the serving process's own heap while a load vets (the container has 256 Mi).
 */
export const VET_HEAP_MB = 64;

/** The worker's young generation, in MB, bounded for the same reason. */
const VET_YOUNG_MB = 16;

/** One module to vet: its file (named in refusals) and the URL to import it from. */
export interface VetJob {
  file: string;
  url: string;
}

export interface VetOptions {
  /** The service's own module (import.meta.url): the kit resolves as from there. */
  serviceUrl: string;
  /** The service runs from its TypeScript sources (tsx), not from `dist/`. */
  fromSource: boolean;
  /**
   * Register tsx's hooks in the worker first: the service's own sources need them, and so
   * does an operator's TypeScript where Node cannot strip types.
   */
  typescript: boolean;
  timeoutMs?: number;
  heapMb?: number;
}

/**
 * Modules the worker vets in one batch, at most, and how long it keeps a batch open (ms):
 * a batch is answered after one wait for what its modules left behind (vet-worker.ts), so
 * the serving process imports the first modules while the worker vets the next.
 */
export const VET_BATCH_MODULES = 32;
export const VET_BATCH_MS = 100;

/** What the worker answers for one module (see {@link Verdict}). */
export interface VetAnswer {
  refusal?: string;
  importError?: string;
  problems?: string[];
  source?: string;
}

/**
 * Messages from the worker (vet-worker.ts): a module's import begins; the answers for the
 * modules from `index` on; the batch from `index` on left something behind, unanswered;
 * every module answered, the worker's heap given back.
 */
export type VetMessage =
  | { type: "start"; index: number }
  | { type: "done"; index: number; answers: VetAnswer[] }
  | { type: "fault"; index: number }
  | { type: "finished" };

/**
 * A module's verdict: `refusal`, why the process must not import it; `importError`, the
 * error its import threw (the process reports it as a module that cannot be imported,
 * without importing it); neither, the process may import it.
 */
export interface Verdict {
  refusal?: string;
  importError?: string;
  /**
   * With neither, what `checkOperation` found wrong with it in the worker (its examples
   * run there): the process need not run them again.
   */
  problems?: string[];
  /** With neither, its TypeScript as the worker stripped it: the process imports that. */
  source?: string;
}

/** What the worker gets (vet-worker.ts). */
export interface VetWorkerData {
  jobs: VetJob[];
  serviceUrl: string;
  fromSource: boolean;
  /** The first jobs to vet one at a time, each with its own wait (the rest in batches). */
  exact?: number;
}

/** tsx's entry, as `node --import tsx` loads it (resolved from here, whatever the cwd). */
const TSX = () => pathToFileURL(createRequire(import.meta.url).resolve("tsx")).href;

const EXTENSION = import.meta.url.endsWith(".ts") ? ".ts" : ".js";
const ENTRY = new URL(`./vet-worker${EXTENSION}`, import.meta.url).href;

/**
 * Runs in the worker as a script: tsx's hooks first when asked (they must come before the
 * kit's, which vet-worker registers), then the worker proper. A failure to start ends the
 * worker with the error, which refuses the module as a crash.
 */
const BOOT = `
const { workerData } = require("node:worker_threads");
(async () => {
  if (workerData.tsx) await import(workerData.tsx);
  await import(workerData.entry);
})().catch((error) => { setImmediate(() => { throw error; }); });
`;

/**
 * Vets `jobs` in order, in one worker while they pass, in batches (vet-worker.ts). A worker
 * stopped by a module, or a batch that left a rejection or an exception behind, is
 * replaced for the modules it had not answered: the modules of that batch are vetted one
 * at a time, so the refusal names the module under way, and the rest in batches again.
 * Answers each file's {@link Verdict}. Never rejects.
 *
 * @example
 * const verdicts = vetModules([{ file, url }], { serviceUrl: import.meta.url, fromSource: false, typescript: false });
 * const { refusal } = (await verdicts.get(file)) ?? {}; // "its import and checks did not finish …"
 */
export function vetModules(
  jobs: readonly VetJob[],
  options: VetOptions,
): Map<string, Promise<Verdict>> {
  const timeoutMs = options.timeoutMs ?? VET_TIMEOUT_MS;
  const heapMb = options.heapMb ?? VET_HEAP_MB;
  const settle: ((verdict: Verdict) => void)[] = [];
  const verdicts = new Map<string, Promise<Verdict>>();
  for (const job of jobs) {
    verdicts.set(
      job.file,
      new Promise((resolve) => {
        settle.push(resolve);
      }),
    );
  }
  const tsx = options.typescript ? TSX() : undefined;
  // Every worker of this vetting sees the environment it began with: a batch vetted again
  // one module at a time meets what it met the first time.
  const env = { ...process.env };

  /** Starts a worker for `order` (indices into `jobs`), the first `exact` one at a time. */
  const run = (order: readonly number[], exact: number) => {
    if (order.length === 0) return;
    const data: VetWorkerData = {
      jobs: order.map((index) => jobs[index] as VetJob),
      serviceUrl: options.serviceUrl,
      fromSource: options.fromSource,
      exact,
    };
    const worker =
      tsx === undefined || WORKER_TAKES_HOOKS
        ? vetThread(data, tsx, heapMb, env)
        : vetChild(data, tsx, heapMb, env);
    // The last job whose import began and the first not yet answered (positions in `order`).
    let current: number | undefined;
    let next = 0;
    let stopped = false;
    let faulted = false;
    let failure: Error | undefined;
    let timer: NodeJS.Timeout | undefined;
    const arm = (ms: number) => {
      clearTimeout(timer);
      timer = setTimeout(() => {
        stopped = true;
        void worker.terminate();
      }, ms);
    };
    arm(Math.max(timeoutMs, BOOT_TIMEOUT_MS));
    worker.on("message", (message: VetMessage) => {
      if (message.type === "start") {
        current = message.index;
        arm(timeoutMs);
      } else if (message.type === "fault" || message.type === "finished") {
        faulted = message.type === "fault";
        clearTimeout(timer);
        void worker.terminate();
      } else {
        for (const [offset, answer] of message.answers.entries()) {
          settle[order[message.index + offset] as number]?.(answer);
        }
        next = message.index + message.answers.length;
        current = undefined;
        // Every module answered: the worker gives its heap back, then is ended (a module's
        // timers must not keep it alive), within the time a module has.
        if (next >= order.length) arm(timeoutMs);
      }
    });
    worker.on("error", (error) => {
      failure ??= error;
    });
    worker.on("exit", (code) => {
      clearTimeout(timer);
      if (next >= order.length) return;
      const reason = refusalOf({ stopped, failure, code, timeoutMs, heapMb });
      if (current === undefined && next === 0) {
        // The worker never reached a module: nothing may be imported unvetted.
        const why = stopped ? "the vetting worker did not answer in time" : reason;
        for (const index of order) settle[index]?.({ refusal: `could not be vetted: ${why}` });
      } else if (faulted || current === undefined) {
        // A batch left something behind (or the worker ended between modules): its modules
        // again, one at a time, to name the one; the rest in batches.
        run(order.slice(next), Math.max(1, (current ?? next) - next + 1, exact - next));
      } else {
        // Stopped while importing or checking `current`: refused; the modules of its batch
        // before it again, one at a time (one of them may have set it off), the rest after.
        settle[order[current] as number]?.({ refusal: reason });
        run(
          [...order.slice(next, current), ...order.slice(current + 1)],
          current - next + Math.max(0, exact - current - 1),
        );
      }
    });
  };
  run(
    jobs.map((_, index) => index),
    0,
  );
  return verdicts;
}

/** What vetModules needs of a worker thread or a child process doing its vetting. */
interface Vetter {
  on(event: "message", listener: (message: VetMessage) => void): unknown;
  on(event: "error", listener: (error: Error) => void): unknown;
  on(event: "exit", listener: (code: number) => void): unknown;
  terminate(): unknown;
}

/** A worker thread, its heap bounded; what a module prints while vetted is dropped. */
function vetThread(
  data: VetWorkerData,
  tsx: string | undefined,
  heapMb: number,
  env: NodeJS.ProcessEnv,
): Vetter {
  const worker = new Worker(BOOT, {
    eval: true,
    env,
    workerData: { ...data, tsx, entry: ENTRY },
    resourceLimits: { maxOldGenerationSizeMb: heapMb, maxYoungGenerationSizeMb: VET_YOUNG_MB },
    stdout: true,
    stderr: true,
  });
  worker.stdout.resume();
  worker.stderr.resume();
  return worker;
}

/**
 * A child process with tsx's hooks, for a Node whose threads do not take them: the same
 * messages, its exits told as a thread's (out of memory as ERR_WORKER_OUT_OF_MEMORY).
 */
function vetChild(
  data: VetWorkerData,
  tsx: string,
  heapMb: number,
  env: NodeJS.ProcessEnv,
): Vetter {
  const events = new EventEmitter();
  const child = fork(fileURLToPath(ENTRY), [], {
    execArgv: ["--import", tsx, `--max-old-space-size=${heapMb}`],
    env: { ...env, [VET_DATA_ENV]: JSON.stringify(data) },
    stdio: ["ignore", "ignore", "ignore", "ipc"],
  });
  let answered = 0;
  child.on("message", (message: VetMessage) => {
    events.emit("message", message);
    // Every module answered: the child has nothing more to do (a module's timer may keep it).
    if (message.type === "done") answered += message.answers.length;
    if (answered === data.jobs.length) child.kill("SIGKILL");
  });
  child.on("error", (error) => events.emit("error", error));
  child.on("exit", (code, signal) => {
    if (signal === "SIGABRT" || code === 134) {
      events.emit(
        "error",
        Object.assign(new Error("out of memory"), { code: "ERR_WORKER_OUT_OF_MEMORY" }),
      );
    }
    // 13: Node's exit for a top-level await that never settled, which a thread ends with 0.
    events.emit("exit", code === 13 ? 0 : (code ?? 1));
  });
  return {
    on: events.on.bind(events),
    terminate: () => child.kill("SIGKILL"),
  } as Vetter;
}

/** Where a child process doing the vetting finds its jobs (a thread gets them as workerData). */
export const VET_DATA_ENV = "UCS_VET_DATA";

/** Why a worker ended before answering for the module it was importing. */
function refusalOf(end: {
  stopped: boolean;
  failure: Error | undefined;
  code: number;
  timeoutMs: number;
  heapMb: number;
}): string {
  if (end.stopped) {
    return `its import and checks did not finish within ${end.timeoutMs} ms (stopped)`;
  }
  const code = (end.failure as NodeJS.ErrnoException | undefined)?.code;
  if (code === "ERR_WORKER_OUT_OF_MEMORY") {
    return `ran out of memory while imported and checked (a ${end.heapMb} MB heap)`;
  }
  if (end.failure !== undefined) return `crashed while imported: ${end.failure.message}`;
  if (end.code !== 0) return `ended its thread (exit code ${end.code}) while imported`;
  return "its import never finished (a top-level await that never settles, or process.exit)";
}
