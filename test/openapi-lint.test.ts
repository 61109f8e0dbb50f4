/**
 * `/openapi.json` passes Redocly's recommended ruleset with no error and no warning, so
 * client generators and doc renderers take it as it is. Runs the pinned devDependency
 * offline: telemetry and the update check are off.
 */
import { execFile } from "node:child_process";
import { mkdtemp, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { testApp } from "./helpers.js";

const run = promisify(execFile);
const REDOCLY = path.resolve("node_modules/.bin/redocly");

let app: FastifyInstance;
let dir: string;
beforeAll(async () => {
  app = await testApp();
  dir = await mkdtemp(path.join(tmpdir(), "openapi-lint-"));
});
afterAll(async () => {
  await app.close();
  await rm(dir, { recursive: true, force: true });
});

interface LintReport {
  totals: { errors: number; warnings: number };
  problems: { ruleId: string; message: string; location: { pointer: string }[] }[];
}

describe("Redocly lint, recommended rules", () => {
  it("reports 0 problems on /openapi.json", async () => {
    const response = await app.inject({ url: "/openapi.json" });
    expect(response.statusCode).toBe(200);
    const file = path.join(dir, "openapi.json");
    await writeFile(file, response.body);
    // Exit status 1 on errors; the JSON report is on stdout either way.
    const { stdout } = await run(
      REDOCLY,
      ["lint", "--extends=recommended", "--format=json", file],
      {
        env: { ...process.env, REDOCLY_TELEMETRY: "off", REDOCLY_SUPPRESS_UPDATE_NOTICE: "true" },
        timeout: 60_000,
      },
    ).catch((error: { stdout?: string }) => ({ stdout: error.stdout ?? "" }));
    const report = JSON.parse(stdout) as LintReport;
    const found = report.problems.map(
      (p) => `${p.ruleId} at ${p.location[0]?.pointer ?? "?"}: ${p.message}`,
    );
    expect(found).toEqual([]);
    expect(report.totals).toMatchObject({ errors: 0, warnings: 0 });
  }, 90_000);
});
