/** Dev tooling shared by the bench, the soak and the process tests: a process's figures from /proc. */
import { readFileSync } from "node:fs";

/** A `kB` field of /proc/<pid>/status (VmRSS, VmHWM…), or undefined once the process is gone. */
export function statusKb(pid: number, field: string): number | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, "utf8");
    const match = new RegExp(`^${field}:\\s+(\\d+)\\s+kB`, "m").exec(status);
    return match ? Number(match[1]) : undefined;
  } catch {
    return undefined;
  }
}

/** Resident set size of `pid` in kB (VmRSS), or undefined once it is gone. */
export function rssKb(pid: number): number | undefined {
  return statusKb(pid, "VmRSS");
}

/** CPU time (user + system) of `pid` in clock ticks (10 ms), or 0 once it is gone. */
export function cpuTicks(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    // After `comm`: state is field 3, utime 14 and stime 15 (1-based in proc(5)).
    return Number(fields[11]) + Number(fields[12]);
  } catch {
    return 0;
  }
}
