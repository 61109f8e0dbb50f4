/**
 * Summarises a V8 `.cpuprofile` (from `node --cpu-prof`): self time by function, self
 * time by package or source folder, and inclusive time by function.
 *
 * Usage: npx tsx bench/cpuprofile-top.ts <file.cpuprofile> [--top 25] [--from µs --to µs]
 *        [--focus REGEXP] (functions whose inclusive time to list apart; see DEFAULT_FOCUS)
 * (`--from`/`--to`: a window on the monotonic clock, in µs, as `process.hrtime` counts;
 * bench/profile.ts passes the load's, so start-up and shutdown are left out.)
 */
import { readFileSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

interface CallFrame {
  functionName: string;
  url: string;
  lineNumber: number;
  columnNumber: number;
}

interface ProfileNode {
  id: number;
  callFrame: CallFrame;
  children?: number[];
}

export interface CpuProfile {
  nodes: ProfileNode[];
  startTime: number;
  endTime: number;
  samples: number[];
  timeDeltas: number[];
}

export interface Row {
  name: string;
  ms: number;
  /** Share of all sampled time in the window (idle included). */
  percent: number;
  /** Share of the time the thread was busy (idle left out). */
  busyPercent: number;
}

export interface ProfileSummary {
  windowMs: number;
  busyMs: number;
  samples: number;
  selfByFunction: Row[];
  selfByPackage: Row[];
  inclusiveByFunction: Row[];
  /** Inclusive time of the functions matching `focus` (the service's own code, by default). */
  inclusiveFocus: Row[];
}

/** The service's own code and the per-request library entry points worth watching. */
export const DEFAULT_FOCUS =
  /dist\/|^(safeParse|write|LOG|redact|asJson|observe|inc|lookup|parse|validate|execute|stringify|jsonStringifyResultWithoutInternals|digest|createHash|randomUUID|serialize) |^\((garbage collector|program)\)/;

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const IDLE = "(idle)";

function shortUrl(url: string): string {
  if (!url) return "";
  let file = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = file.lastIndexOf("node_modules/");
  if (modules !== -1) return file.slice(modules + "node_modules/".length);
  if (file.startsWith(ROOT)) file = path.relative(ROOT, file);
  return file;
}

function functionKey(frame: CallFrame): string {
  const name = frame.functionName || "(anonymous)";
  const where = shortUrl(frame.url);
  return where ? `${name} ${where}:${frame.lineNumber + 1}` : name;
}

/** The package (`fastify`, `@fastify/cors`), `node:internal`, or the project folder a frame is in. */
function packageKey(frame: CallFrame): string {
  const { url, functionName } = frame;
  if (!url) return functionName.startsWith("(") ? functionName : "(native)";
  if (url.startsWith("node:")) return "node: (core modules)";
  const file = url.startsWith("file://") ? fileURLToPath(url) : url;
  const modules = file.lastIndexOf("node_modules/");
  if (modules !== -1) {
    const parts = file.slice(modules + "node_modules/".length).split("/");
    return parts[0]?.startsWith("@") ? `${parts[0]}/${parts[1]}` : (parts[0] ?? file);
  }
  const relative = file.startsWith(ROOT) ? path.relative(ROOT, file) : file;
  const parts = relative.split("/");
  // dist/src/core/query.js → dist/src/rest; dist/operations/math/sum.js → dist/operations/math
  return parts.slice(0, Math.min(3, parts.length - 1)).join("/") || relative;
}

function rows(totals: Map<string, number>, allMs: number, busyMs: number, top: number): Row[] {
  return [...totals]
    .sort((a, b) => b[1] - a[1])
    .slice(0, top)
    .map(([name, ms]) => ({
      name,
      ms: Math.round(ms * 10) / 10,
      percent: Math.round((ms / allMs) * 1000) / 10,
      busyPercent: name === IDLE ? 0 : Math.round((ms / busyMs) * 1000) / 10,
    }));
}

/** Aggregates `profile` over the samples taken between `fromUs` and `toUs` (all by default). */
export function summariseProfile(
  profile: CpuProfile,
  {
    top = 25,
    fromUs = -Infinity,
    toUs = Infinity,
    focus = DEFAULT_FOCUS,
  }: { top?: number; fromUs?: number; toUs?: number; focus?: RegExp } = {},
): ProfileSummary {
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes)
    for (const child of node.children ?? []) parent.set(child, node.id);

  const self = new Map<string, number>();
  const packages = new Map<string, number>();
  const inclusive = new Map<string, number>();
  let allMs = 0;
  let idleMs = 0;
  let samples = 0;
  let time = profile.startTime;
  for (let i = 0; i < profile.samples.length; i++) {
    time += profile.timeDeltas[i] ?? 0;
    if (time < fromUs || time > toUs) continue;
    // A sample lasts until the next one.
    const ms = (profile.timeDeltas[i + 1] ?? 0) / 1000;
    const node = byId.get(profile.samples[i] ?? -1);
    if (!node) continue;
    samples += 1;
    allMs += ms;
    const key = functionKey(node.callFrame);
    if (key === IDLE) idleMs += ms;
    self.set(key, (self.get(key) ?? 0) + ms);
    const pkg = packageKey(node.callFrame);
    packages.set(pkg, (packages.get(pkg) ?? 0) + ms);
    // Inclusive: every distinct function on the stack, once (recursion counted once).
    const seen = new Set<string>();
    for (let id: number | undefined = node.id; id !== undefined; id = parent.get(id)) {
      const frame = byId.get(id)?.callFrame;
      if (!frame || frame.functionName === "(root)") continue;
      seen.add(functionKey(frame));
    }
    for (const name of seen) inclusive.set(name, (inclusive.get(name) ?? 0) + ms);
  }
  const busyMs = allMs - idleMs;
  return {
    windowMs: Math.round(allMs),
    busyMs: Math.round(busyMs),
    samples,
    selfByFunction: rows(self, allMs, busyMs, top),
    selfByPackage: rows(packages, allMs, busyMs, top),
    inclusiveByFunction: rows(inclusive, allMs, busyMs, top),
    inclusiveFocus: rows(
      new Map([...inclusive].filter(([name]) => focus.test(name))),
      allMs,
      busyMs,
      top * 2,
    ),
  };
}

function table(title: string, data: readonly Row[]): string {
  const lines = [`${title}`, "   ms      %  %busy  function"];
  for (const row of data) {
    lines.push(
      `${row.ms.toFixed(0).padStart(6)} ${row.percent.toFixed(1).padStart(6)} ${row.busyPercent
        .toFixed(1)
        .padStart(6)}  ${row.name}`,
    );
  }
  return lines.join("\n");
}

export function formatSummary(summary: ProfileSummary): string {
  return [
    `${summary.samples} samples over ${summary.windowMs} ms; busy ${summary.busyMs} ms ` +
      `(${((summary.busyMs / Math.max(1, summary.windowMs)) * 100).toFixed(1)}%)`,
    "",
    table("Self time by function", summary.selfByFunction),
    "",
    table("Self time by package / folder", summary.selfByPackage),
    "",
    table("Inclusive time by function", summary.inclusiveByFunction),
    "",
    table(
      "Inclusive time, the service's code and per-request entry points",
      summary.inclusiveFocus,
    ),
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === path.resolve(process.argv[1])) {
  const { values, positionals } = parseArgs({
    allowPositionals: true,
    options: {
      top: { type: "string" },
      from: { type: "string" },
      to: { type: "string" },
      focus: { type: "string" },
    },
  });
  const file = positionals[0];
  if (!file) {
    process.stderr.write("usage: tsx bench/cpuprofile-top.ts <file.cpuprofile> [--top 25]\n");
    process.exit(2);
  }
  const profile = JSON.parse(readFileSync(file, "utf8")) as CpuProfile;
  const summary = summariseProfile(profile, {
    top: Number(values.top ?? 25),
    fromUs: values.from === undefined ? -Infinity : Number(values.from),
    toUs: values.to === undefined ? Infinity : Number(values.to),
    ...(values.focus === undefined ? {} : { focus: new RegExp(values.focus) }),
  });
  process.stdout.write(`${formatSummary(summary)}\n`);
}
