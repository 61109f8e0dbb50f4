/**
 * The worker of vet.ts: imports each module it is given, as the serving process would
 * (the kit's resolution hook; tsx's when the boot registered it), runs its checks, and
 * answers a refusal or none. An import that throws is answered as such, for the serving
 * process to report as it always has; a failing example is left to it.
 *
 * Modules are vetted in batches: a batch's modules are imported one after another and
 * answered together after one wait for what they left behind (a rejection, a callback
 * that throws). A batch that left something behind is not answered: the worker says so
 * and vet.ts vets its modules again, one wait each, in a worker of their own, to name the
 * module. The first `exact` jobs are vetted that way from the start.
 */
import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { parentPort, workerData } from "node:worker_threads";
import { config as zodConfig } from "zod";
import { isOperation } from "../kit/define.js";
import { registerKitResolution, takeStrippedSource } from "./kit-resolution.js";
import { checkOperation, limitProblems } from "./loader.js";
import {
  VET_BATCH_MODULES,
  VET_BATCH_MS,
  VET_DATA_ENV,
  type VetAnswer,
  type VetMessage,
  type VetWorkerData,
} from "./vet.js";

// A worker thread gets its jobs as workerData; a child process (Node 22 with TypeScript), in its environment.
const { jobs, serviceUrl, fromSource, exact } = (workerData ??
  JSON.parse(process.env[VET_DATA_ENV] ?? "{}")) as VetWorkerData;
registerKitResolution(serviceUrl, fromSource, { keepStripped: true });
// Each schema here parses a module's few examples once: zod's compiled object parsers
// (`new Function` per object schema, made at its first parse) would cost more than they
// save. Set before any module is imported: a schema reads it when it is made.
zodConfig({ jitless: true });

/** What the modules under way left behind: a rejection nothing handled, an uncaught throw. */
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

/** Imports and checks one module; its answer, before any wait for what it left behind. */
async function vet(url: string): Promise<VetAnswer & { limits: string[] }> {
  let limits: string[] = [];
  let importError: string | undefined;
  let problems: string[] | undefined;
  try {
    const module = (await import(url)) as { default?: unknown };
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
  return { limits, importError, problems, source: takeStrippedSource(url) };
}

/** The answer sent for a module, given what it (or its batch) left behind. */
function answer(vetted: VetAnswer & { limits: string[] }, left: string | undefined): VetAnswer {
  const refusal = left ?? (vetted.limits.length > 0 ? vetted.limits.join("; ") : undefined);
  const usable = refusal === undefined && vetted.importError === undefined;
  return {
    refusal,
    importError: refusal === undefined ? vetted.importError : undefined,
    problems: usable ? vetted.problems : undefined,
    source: usable ? vetted.source : undefined,
  };
}

let index = 0;
// One at a time: each module's own wait names the one that left something behind.
for (; index < Math.min(exact ?? 0, jobs.length); index++) {
  fault = undefined;
  post({ type: "start", index });
  const vetted = await vet((jobs[index] as { url: string }).url);
  await settled();
  post({ type: "done", index, answers: [answer(vetted, fault)] });
}
while (index < jobs.length) {
  fault = undefined;
  const first = index;
  const began = performance.now();
  const batch: (VetAnswer & { limits: string[] })[] = [];
  do {
    post({ type: "start", index });
    batch.push(await vet((jobs[index] as { url: string }).url));
    index++;
  } while (
    index < jobs.length &&
    index - first < VET_BATCH_MODULES &&
    performance.now() - began < VET_BATCH_MS
  );
  await settled();
  if (fault !== undefined) {
    post({ type: "fault", index: first });
    break;
  }
  post({ type: "done", index: first, answers: batch.map((vetted) => answer(vetted, undefined)) });
}
// Node keeps the pages of a worker's heap resident after the worker ends (~15 MB of the
// serving process's RSS at 300 modules): given back here, before the worker is ended.
setFlagsFromString("--expose-gc");
(runInNewContext("gc") as (options: object) => void)({
  type: "major",
  execution: "sync",
  flavor: "last-resort",
});
post({ type: "finished" });
