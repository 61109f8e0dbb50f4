/**
 * The REST gateway: `GET /v1/<area>/<name>` for every operation in the registry, each
 * behind the API-key hook, each answered by the shared runner.
 */
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { execute, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import { pathOf } from "../registry/loader.js";
import { planFor, type QueryValues, TRUNCATED, toInput } from "./query.js";

/** Registers one GET route per operation. */
export function registerRestRoutes(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  authenticate: onRequestHookHandler,
  run: Runner = execute,
): void {
  for (const operation of operations) {
    const plan = planFor(operation);
    app.get(pathOf(operation), { onRequest: authenticate }, (request) => {
      const values = request.query as QueryValues;
      const { input, problems } = toInput(plan, values);
      if (values[TRUNCATED]) {
        problems.push({
          loc: [],
          msg: "Value error, too many query parameters",
          type: "value_error",
        });
      }
      return run(operation, input, problems);
    });
  }
}
