/** Shared test setup: an app with a known key, and query-string building from examples. */
import type { FastifyInstance } from "fastify";
import { queryOf } from "../scripts/lib/query.js";
import { buildApp } from "../src/app.js";
import { loadConfig } from "../src/config.js";
import { pathOf } from "../src/core/path.js";
import type { AnyOperation } from "../src/kit/define.js";
import { loadOperations, operationsDirs } from "../src/registry/loader.js";

export const TEST_KEY = "test-key-0123456789";
export const AUTH = { "x-api-key": TEST_KEY };

let operations: Promise<AnyOperation[]> | undefined;

/**
 * Every operation under operations/ and the test run's OPERATIONS_DIRS, loaded once per
 * test file: `OPERATIONS_DIRS=/my/ops npx vitest run test/contract.test.ts` checks
 * an operator's modules with every registry-driven suite.
 */
export function allOperations(): Promise<AnyOperation[]> {
  operations ??= loadOperations(operationsDirs(loadConfig(process.env).operationsDirs));
  return operations;
}

/**
 * An app serving every operation, with {@link TEST_KEY} as its only key and no logs.
 * Failed authentications are not limited (suites send hundreds of wrong keys from one
 * address) unless `env` says so: the default limit has tests of its own.
 */
export async function testApp(env: Record<string, string> = {}): Promise<FastifyInstance> {
  return buildApp({
    config: loadConfig({ API_KEYS: TEST_KEY, AUTH_FAILURE_LIMIT: "0", ...env }),
    operations: await allOperations(),
    logger: false,
  });
}

export { queryOf };

/** `GET /v1/<area>/<name>?<query>` with the test key. */
export function urlOf(operation: AnyOperation, query = ""): string {
  return query ? `${pathOf(operation)}?${query}` : pathOf(operation);
}
