/**
 * The REST gateway: `GET /v1/<area>/<name>` for every operation in the registry, in one
 * encapsulated scope behind the API-key hook, each answered by the shared runner.
 */
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { execute, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import { REST_PREFIX, routeOf } from "./path.js";
import { planFor, type QueryValues, toInput } from "./query.js";

/** Registers the `/v1` scope: its access hook and one GET route per operation. */
export function registerRestRoutes(
  app: FastifyInstance,
  operations: readonly AnyOperation[],
  authenticate: onRequestHookHandler,
  run: Runner = execute,
): void {
  app.register(
    async (v1) => {
      v1.addHook("onRequest", authenticate);
      for (const operation of operations) {
        const plan = planFor(operation);
        v1.get(routeOf(operation), (request) => {
          const values = request.query as QueryValues;
          const { input, problems } = toInput(plan, values);
          if (values.truncated) {
            problems.push({
              loc: [],
              msg: "Value error, too many query parameters",
              type: "value_error",
            });
          }
          return run(operation, input, problems);
        });
      }
    },
    { prefix: REST_PREFIX },
  );
}
