/**
 * What the serving process does with a rejection nothing handled and an exception nothing
 * caught. A rejection is a promise's settled state: nothing was left part-way, so it is
 * logged and the process serves on (Node's default would exit, dropping every request in
 * flight). An uncaught exception stopped a callback part-way: survived only when the
 * service's own code had no part in it (every frame of its stack is an operator's module,
 * e.g. a timer a module set at import); otherwise the process may hold broken state, so it
 * logs the exception and exits 1, for its supervisor to restart it.
 */
import path from "node:path";
import { fileURLToPath } from "node:url";

interface FaultLog {
  error(object: object, message: string): void;
  fatal(object: object, message: string): void;
}

/** A stack frame's location: `file:///x.js?q:1:2`, `/x.js:1:2`, `node:internal/…:1:2`. */
const FRAME = /^\s*at (?:.*? \()?(.+?)(?::\d+){1,2}\)?$/;

/**
 * True when `error` was thrown with only an operator's module (a file under `dirs`) on its
 * stack, besides Node's own frames: no code of the service was interrupted.
 *
 * @example
 * thrownByOperatorCode(error, ["/srv/my-operations"]);
 */
export function thrownByOperatorCode(error: unknown, dirs: readonly string[]): boolean {
  const stack = error instanceof Error ? error.stack : undefined;
  if (typeof stack !== "string" || dirs.length === 0) return false;
  const frames = stack.split("\n").filter((line) => /^\s*at /.test(line));
  // A stack cut at the limit may hide the service's frames below.
  if (frames.length === 0 || frames.length >= Error.stackTraceLimit) return false;
  const roots = dirs.map((dir) => `${path.resolve(dir)}${path.sep}`);
  let operator = false;
  for (const frame of frames) {
    const location = FRAME.exec(frame)?.[1];
    if (location === undefined) return false;
    if (location.startsWith("node:")) continue;
    const file = location.startsWith("file://")
      ? fileURLToPath(location.split("?")[0] ?? "")
      : location;
    if (!roots.some((root) => file.startsWith(root))) return false;
    operator = true;
  }
  return operator;
}

/**
 * The process's handlers for an unhandled rejection and an uncaught exception.
 * `operatorDirs`: OPERATIONS_DIRS, whose modules' own throws are survived.
 */
export function faultHandlers(
  log: FaultLog,
  operatorDirs: readonly string[],
  exit: (code: number) => void,
): { rejection: (reason: unknown) => void; exception: (error: Error) => void } {
  return {
    rejection: (reason) => {
      log.error({ err: reason }, "unhandled promise rejection; the process serves on");
    },
    exception: (error) => {
      if (thrownByOperatorCode(error, operatorDirs)) {
        log.error(
          { err: error },
          "uncaught exception in an operator's module; the process serves on",
        );
        return;
      }
      log.fatal({ err: error }, "uncaught exception; the process may be broken, exiting");
      exit(1);
    },
  };
}

/**
 * Installs {@link faultHandlers} on the process.
 *
 * @example
 * handleProcessFaults(app.log, config.operationsDirs);
 */
export function handleProcessFaults(log: FaultLog, operatorDirs: readonly string[]): void {
  const { rejection, exception } = faultHandlers(log, operatorDirs, (code) => process.exit(code));
  process.on("unhandledRejection", rejection);
  process.on("uncaughtException", exception);
}
