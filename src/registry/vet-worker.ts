/**
 * The worker of vet.ts: imports each module it is given, as the serving process would
 * (the kit's resolution hook; tsx's when the boot registered it), runs its checks, and
 * answers a refusal or none. An import that throws is answered as such, for the serving
 * process to report as it always has; a failing example is left to it.
 */
import { parentPort, workerData } from "node:worker_threads";
import { isOperation } from "../kit/define.js";
import { registerKitResolution, takeStrippedSource } from "./kit-resolution.js";
import { checkOperation, limitProblems } from "./loader.js";
import { VET_DATA_ENV, type VetMessage, type VetWorkerData } from "./vet.js";

// A worker thread gets its jobs as workerData; a child process (Node 22 with TypeScript), in its environment.
const { jobs, serviceUrl, fromSource } = (workerData ??
  JSON.parse(process.env[VET_DATA_ENV] ?? "{}")) as VetWorkerData;
registerKitResolution(serviceUrl, fromSource, { keepStripped: true });

/** What the module under way left behind: a rejection nothing handled, an uncaught throw. */
let fault: string | undefined;
process.on("unhandledRejection", (reason) => {
  fault ??= `left a promise rejection unhandled at import: ${describe(reason)}`;
});
process.on("uncaughtException", (error) => {
  fault ??= `threw outside its import (an uncaught exception): ${describe(error)}`;
});

function describe(value: unknown): string {
  const text = value instanceof Error ? value.message : String(value);
  return text.slice(0, 200);
}

/** A turn of the event loop: rejections and callbacks queued at import run first. */
const settled = () => new Promise((resolve) => setTimeout(resolve, 10));

const post = (message: VetMessage) =>
  parentPort ? parentPort.postMessage(message) : process.send?.(message);

for (const [index, job] of jobs.entries()) {
  fault = undefined;
  post({ type: "start", index });
  let limits: string[] = [];
  let importError: string | undefined;
  let problems: string[] | undefined;
  try {
    const module = (await import(job.url)) as { default?: unknown };
    const operation = module.default;
    if (isOperation(operation)) {
      limits = limitProblems(operation);
      // Its examples run here, under the time limit: one that loops stops this worker.
      // What they found is the serving process's to report; it does not run them again.
      if (limits.length === 0) problems = checkOperation(operation);
    }
  } catch (error) {
    // Reported by the serving process as it always has, without importing it there.
    importError = (error as Error)?.message ?? String(error);
  }
  const source = takeStrippedSource(job.url);
  await settled();
  const refusal = fault ?? (limits.length > 0 ? limits.join("; ") : undefined);
  const usable = refusal === undefined && importError === undefined;
  post({
    type: "done",
    index,
    refusal,
    importError: refusal === undefined ? importError : undefined,
    problems: usable ? problems : undefined,
    source: usable ? source : undefined,
  });
}
