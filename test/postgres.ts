/**
 * A throwaway PostgreSQL cluster for tests: `initdb` in a temporary directory, a server on a
 * free port of 127.0.0.1 (trust authentication, no fsync), one database. Needs Debian's
 * `postgresql` package (binaries under /usr/lib/postgresql/<version>/bin); as root, the
 * cluster runs as the `postgres` user, since the server refuses to run as root.
 *
 * @example
 * if (!postgresBinDir()) skip...
 * const pg = await startPostgres(); // pg.url: postgres://postgres@127.0.0.1:41873/ucs_test
 * await pg.stop();
 */
import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir, userInfo } from "node:os";
import { join } from "node:path";
import pg from "pg";
import { freePort } from "../scripts/lib/free-port.js";

const DATABASE = "ucs_test";
/** initdb plus the server's start stay well below this on a loaded 2-core machine. */
const STEP_TIMEOUT_MS = 60_000;

/** The newest /usr/lib/postgresql/<version>/bin holding initdb, or undefined. */
export function postgresBinDir(): string | undefined {
  const root = "/usr/lib/postgresql";
  if (!existsSync(root)) return undefined;
  const versions = readdirSync(root)
    .filter((name) => existsSync(join(root, name, "bin", "initdb")))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] === undefined ? undefined : join(root, versions[0], "bin");
}

export interface Postgres {
  /** postgres://postgres@127.0.0.1:<port>/ucs_test */
  url: string;
  port: number;
  /** Stops the server (immediately) and removes its directory; safe to call twice. */
  stop(): Promise<void>;
}

const quote = (word: string) => `'${word.replaceAll("'", "'\\''")}'`;

/** The command line running `bin args` as the `postgres` user: runuser, else su. */
function asPostgresUser(bin: string, args: string[]): [string, string[]] {
  if (spawnSync("runuser", ["--help"], { stdio: "ignore" }).status === 0) {
    return ["runuser", ["-u", "postgres", "--", bin, ...args]];
  }
  return ["su", ["postgres", "-s", "/bin/sh", "-c", [bin, ...args].map(quote).join(" ")]];
}

/** Runs a PostgreSQL binary, as `postgres` when this process is root; rejects on failure. */
function run(bin: string, args: string[], asPostgres: boolean): Promise<void> {
  const [command, argv] = asPostgres ? asPostgresUser(bin, args) : [bin, args];
  return new Promise((resolve, reject) => {
    const child = spawn(command, argv, { stdio: ["ignore", "pipe", "pipe"] });
    let output = "";
    child.stdout.on("data", (chunk) => {
      output += chunk;
    });
    child.stderr.on("data", (chunk) => {
      output += chunk;
    });
    const timer = setTimeout(() => child.kill("SIGKILL"), STEP_TIMEOUT_MS);
    child.on("error", (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve();
      else reject(new Error(`${bin} ${args.join(" ")}: ${code ?? signal}\n${output.slice(-2000)}`));
    });
  });
}

/** Starts a cluster and creates its database; rejects (cleaning up) if it cannot. */
export async function startPostgres(): Promise<Postgres> {
  const bin = postgresBinDir();
  if (!bin) throw new Error("PostgreSQL is not installed (apt-get install postgresql)");
  const asPostgres = userInfo().uid === 0;
  const dir = mkdtempSync(join(tmpdir(), "ucs-pg-"));
  if (asPostgres) {
    const chown = spawnSync("chown", ["postgres:", dir], { encoding: "utf8" });
    if (chown.status !== 0) throw new Error(`chown postgres: ${dir}: ${chown.stderr}`);
  }
  const data = join(dir, "data");
  const port = await freePort();
  let started = false;
  const stop = async () => {
    if (started) {
      started = false;
      await run(
        join(bin, "pg_ctl"),
        ["-D", data, "-m", "immediate", "-w", "stop"],
        asPostgres,
      ).catch(() => {});
    }
    rmSync(dir, { recursive: true, force: true });
  };
  try {
    await run(
      join(bin, "initdb"),
      [
        "-D",
        data,
        "-U",
        "postgres",
        "--auth=trust",
        "-E",
        "UTF8",
        "--no-sync",
        "--no-instructions",
      ],
      asPostgres,
    );
    const options = [
      `-p ${port}`,
      "-c listen_addresses=127.0.0.1",
      `-c unix_socket_directories=${dir}`,
      "-c fsync=off",
      "-c full_page_writes=off",
      "-c max_connections=40",
    ].join(" ");
    started = true;
    await run(
      join(bin, "pg_ctl"),
      ["-D", data, "-l", join(dir, "server.log"), "-o", options, "-w", "-t", "60", "start"],
      asPostgres,
    );
    const admin = new pg.Client({
      host: "127.0.0.1",
      port,
      user: "postgres",
      database: "postgres",
    });
    await admin.connect();
    try {
      await admin.query(`create database ${DATABASE}`);
    } finally {
      await admin.end();
    }
  } catch (error) {
    await stop();
    throw error;
  }
  return { url: `postgres://postgres@127.0.0.1:${port}/${DATABASE}`, port, stop };
}
