/** Where the REST gateway serves operations. */
import type { AnyOperation } from "../kit/define.js";

/** The prefix of every REST operation route: one encapsulated fastify scope. */
export const REST_PREFIX = "/v1";

/** An operation's route inside the `/v1` scope: `/<area>/<name>`. */
export function routeOf(operation: AnyOperation): string {
  return `/${operation.area}/${operation.name}`;
}

/** The REST path of an operation: `/v1/<area>/<name>`. */
export function pathOf(operation: AnyOperation): string {
  return `${REST_PREFIX}${routeOf(operation)}`;
}
