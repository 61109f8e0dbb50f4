#!/usr/bin/env node
/** The `ucs` command: see cli.ts, and docs/cli.md. */
import { loadOperations } from "../registry/loader.js";
import { runCli } from "./cli.js";
import { PROGRAM } from "./help.js";
import { EXIT_FAILURE } from "./output.js";

loadOperations()
  .then((operations) =>
    runCli(process.argv.slice(2), operations, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
    }),
  )
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      process.stderr.write(`${PROGRAM}: ${String((error as Error)?.stack ?? error)}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
