/**
 * A/B of two builds of the service on one workload (dev tool, not part of the bench): both
 * started as the bench starts the service (the shipped quota and log level), both on the
 * same CPU, loaded in turn in short bursts, many times; prints the median CPU µs per
 * request of each and their ratio. Alternating bursts keep a busy machine's drift out of
 * the comparison better than one long run each.
 *
 *   npx tsx bench/ab.ts --before /tmp/before/dist/src/server.js [--after dist/src/server.js]
 *     [--target rest-sum] [--bursts 12] [--seconds 2]
 *
 * The "before" build is a copy of `dist/` with `package.json` beside it and a link to
 * `node_modules` (`cp -r dist package.json /tmp/before && ln -s "$PWD/node_modules"
 * /tmp/before/`): without them its packages do not resolve.
 */
import { mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { startCommand } from "../scripts/lib/start-command.js";
import { loadOperations } from "../src/registry/loader.js";
import { runLoad } from "./lib/load.js";
import { cpuTicks, killAllNow, pinToCpu, startNode, stopServer, waitReady } from "./lib/proc.js";
import { median } from "./lib/report.js";
import { shippedEnv } from "./lib/shipped.js";
import { buildWorkloads, checkWorkload, createManagedKey, withKey } from "./lib/workload.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const START = startCommand();
const ADMIN_TOKEN = "ab-admin-token-0123456789abcdefghijklmnop";

const { values } = parseArgs({
  options: {
    before: { type: "string" },
    after: { type: "string", default: path.join(ROOT, "dist", "src", "server.js") },
    target: { type: "string", default: "rest-sum" },
    bursts: { type: "string", default: "12" },
    seconds: { type: "string", default: "2" },
  },
});

async function main(): Promise<void> {
  if (!values.before) throw new Error("--before <server.js> is required");
  const all = buildWorkloads(await loadOperations());
  const base = all.find((w) => w.name === values.target);
  if (!base) throw new Error(`no target ${values.target}`);
  const logDir = mkdtempSync(path.join(os.tmpdir(), "ucs-ab-"));
  const builds = { before: values.before, after: values.after };
  const servers = [];
  for (const [name, script] of Object.entries(builds)) {
    const server = await startNode({
      name,
      args: [...START.nodeFlags, script],
      env: { ...START.env, ...shippedEnv(path.join(logDir, `${name}-data`), ADMIN_TOKEN) },
      logDir,
      cwd: ROOT,
    });
    await waitReady(server, { path: "/health" });
    pinToCpu(server.pid, 0);
    const workload = base.managedKey
      ? withKey(base, await createManagedKey(server.origin, ADMIN_TOKEN))
      : base;
    const problems = await checkWorkload(server.origin, workload);
    if (problems.length > 0) throw new Error(problems.join("\n"));
    servers.push({ name, server, workload, cpu: [] as number[], rps: [] as number[] });
  }
  pinToCpu(process.pid, 1);
  const seconds = Number(values.seconds);
  for (const s of servers) await runLoad(s.server.origin, s.workload, { connections: 50, seconds });
  for (let burst = 0; burst < Number(values.bursts); burst++) {
    const order = burst % 2 === 0 ? servers : [...servers].reverse();
    for (const s of order) {
      const before = cpuTicks(s.server.pid);
      const load = await runLoad(s.server.origin, s.workload, { connections: 50, seconds });
      s.cpu.push(((cpuTicks(s.server.pid) - before) * 1e4) / load.total);
      s.rps.push(load.requestsPerSecond);
    }
  }
  const [a, b] = servers;
  if (!a || !b) return;
  for (const s of servers) {
    process.stdout.write(
      `${s.name}: CPU ${median(s.cpu).toFixed(1)} µs/request (lowest ${Math.min(...s.cpu).toFixed(1)}; bursts ${s.cpu.map((v) => v.toFixed(0)).join(" ")}), ${Math.round(median(s.rps))} req/s\n`,
    );
  }
  process.stdout.write(
    `${values.target}: after/before CPU ${(median(b.cpu) / median(a.cpu)).toFixed(3)} (lowest bursts ${(Math.min(...b.cpu) / Math.min(...a.cpu)).toFixed(3)}), req/s ${(median(b.rps) / median(a.rps)).toFixed(3)}; load average ${os.loadavg()[0]?.toFixed(1)}\n`,
  );
  for (const s of servers) await stopServer(s.server);
  rmSync(logDir, { recursive: true, force: true });
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    process.stderr.write(`${String((error as Error)?.stack ?? error)}\n`);
    killAllNow();
    process.exit(1);
  },
);
