// Temporary (not committed): base vs this branch, same run, alternating; CPU µs/request.
import { mkdtempSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { loadOperations } from "./src/registry/loader.js";
import { runLoad } from "./bench/lib/load.js";
import { cpuTicks, startNode, stopServer, waitReady } from "./bench/lib/proc.js";
import { API_KEY, buildWorkloads } from "./bench/lib/workload.js";

const roots = { base: "/tmp/i14a-base", mine: "/work/wt/i14a" };
const logDir = mkdtempSync(path.join(os.tmpdir(), "i14a-sbs-"));
const targets = ["graphql-1", "graphql-10", "graphql-10-sum"];
const rounds = Number(process.argv[2] ?? 5);
const workloads = buildWorkloads(await loadOperations()).filter((w) => targets.includes(w.name));
const servers: Record<string, Awaited<ReturnType<typeof startNode>>> = {};
for (const [name, root] of Object.entries(roots)) {
  servers[name] = await startNode({
    name,
    args: [path.join(root, "dist", "src", "server.js")],
    env: { NODE_ENV: "production", API_KEYS: API_KEY, LOG_LEVEL: "info" },
    logDir,
    cwd: root,
  });
}
for (const s of Object.values(servers)) await waitReady(s, { path: "/health", timeoutMs: 60_000 });
const us: Record<string, number[]> = {};
for (let round = 0; round < rounds; round++) {
  for (const w of workloads) {
    const order = round % 2 === 0 ? ["base", "mine"] : ["mine", "base"];
    for (const name of order) {
      const s = servers[name]!;
      await runLoad(s.origin, w, { connections: 10, seconds: 1 });
      const before = cpuTicks(s.pid);
      const r = await runLoad(s.origin, w, { connections: 10, seconds: 3 });
      const ticks = cpuTicks(s.pid) - before;
      const v = (ticks * 1e4) / r.total;
      (us[`${w.name} ${name}`] ??= []).push(v);
      console.log(`round ${round} ${w.name} ${name} ${v.toFixed(1)} µs/req (${r.total} req, non2xx ${r.non2xx})`);
    }
  }
}
const median = (a: number[]) => [...a].sort((x, y) => x - y)[Math.floor(a.length / 2)]!;
for (const w of targets) {
  const b = median(us[`${w} base`]!), m = median(us[`${w} mine`]!);
  console.log(`${w}: base ${b.toFixed(1)} µs/req, mine ${m.toFixed(1)} µs/req, ratio ${(m / b).toFixed(3)}`);
}
for (const s of Object.values(servers)) await stopServer(s);
process.exit(0);
