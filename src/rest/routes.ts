/**
 * The REST gateway: `GET /v1/<area>/<name>` for every operation in the registry, in one
 * encapsulated scope, each behind the access layer's hook and answered by the shared runner.
 */
import type { FastifyInstance, onRequestHookHandler } from "fastify";
import { pathOf, REST_PREFIX, routeOf } from "../core/path.js";
import { planFor, type QueryPlan, type QueryValues, toInput } from "../core/query.js";
import { execute, type Runner } from "../core/runner.js";
import type { AnyOperation } from "../kit/define.js";
import { countingRunner } from "../observability/calculation-counters.js";
import type { Surface } from "../surface.js";

/** An operation as REST serves it: its path and how its query becomes its input. */
export interface RestRoute {
  readonly operation: AnyOperation;
  readonly plan: QueryPlan;
  /** `/v1/<area>/<name>`: the path, and the route's label in logs and metrics. */
  readonly path: string;
}

/** The REST routes of `operations`, each planned once. */
export function restRoutes(operations: readonly AnyOperation[]): RestRoute[] {
  return operations.map((operation) => ({
    operation,
    plan: planFor(operation),
    path: pathOf(operation),
  }));
}

/**
 * What `route` answers for the query `values`: the input read from them, checked and run
 * by `run`. Throws what the runner throws (a 422 with every problem, a 404, a fault).
 */
export function restOutput(route: RestRoute, values: QueryValues, run: Runner): unknown {
  const { input, problems } = toInput(route.plan, values);
  if (values.truncated) {
    problems.push({
      loc: [],
      msg: "Value error, too many query parameters",
      type: "value_error",
    });
  }
  return run(route.operation, input, problems);
}

/**
 * Registers the `/v1` scope: one route per operation (GET, and HEAD), each behind its own
 * access hook (`guard`: key, scopes, plan), made once per route.
 */
export function registerRestRoutes(
  app: FastifyInstance,
  routes: readonly RestRoute[],
  guard: (operation: AnyOperation) => onRequestHookHandler,
  run: Runner = execute,
): void {
  app.register(
    async (v1) => {
      for (const route of routes) {
        // GET and HEAD on one route: fastify's automatic HEAD route is a second one per
        // operation (its own context, hooks and router entries, made at every start and
        // reload) for an answer Node already sends without its body.
        v1.route({
          method: ["GET", "HEAD"],
          url: routeOf(route.operation),
          onRequest: guard(route.operation),
          handler: (request) => restOutput(route, request.query as QueryValues, run),
        });
      }
    },
    { prefix: REST_PREFIX },
  );
}

/** REST: `GET /v1/<area>/<name>` for every operation. */
export const restSurface: Surface = {
  name: "rest",
  register(app, { operations, access, metrics }) {
    registerRestRoutes(app, restRoutes(operations), access.guard, countingRunner(metrics, "rest"));
  },
};
