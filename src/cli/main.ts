#!/usr/bin/env node
/** The `ucs` command: see cli.ts, and docs/cli.md. */
import { listFrom } from "../config.js";
import { loadOperations, operationsDirs } from "../registry/loader.js";
import { runCli } from "./cli.js";
import { PROGRAM } from "./help.js";
import { EXIT_FAILURE, redactUrls, visible } from "./output.js";

// The operator's folders too, as the service loads them: `ucs list` shows what it serves.
loadOperations(operationsDirs(listFrom(process.env.OPERATIONS_DIRS)))
  .then((operations) =>
    runCli(process.argv.slice(2), operations, {
      stdout: process.stdout,
      stderr: process.stderr,
      env: process.env,
      stdin: process.stdin,
    }),
  )
  .then(
    (code) => {
      process.exitCode = code;
    },
    (error: unknown) => {
      // Before runCli's own output guard: the same escaping and redaction, by hand.
      const text = String((error as Error)?.stack ?? error);
      process.stderr.write(`${PROGRAM}: ${visible(redactUrls(text, process.env.UCS_URL))}\n`);
      process.exitCode = EXIT_FAILURE;
    },
  );
