/**
 * The one signature every HTTP surface registers through. app.ts builds one
 * {@link SurfaceContext} and hands it to each surface in turn; what a surface serves
 * besides the operations' GET paths it also states for the OpenAPI document.
 */
import type { FastifyInstance } from "fastify";
import type { AccessControl } from "./access/control.js";
import type { ManagedKeys } from "./access/keys/managed.js";
import type { Config } from "./config.js";
import type { OpenApiFragment } from "./core/json-schema.js";
import type { AnyOperation } from "./kit/define.js";
import type { Metrics } from "./observability/metrics.js";

/** What every surface is given: the same for all of them. */
export interface SurfaceContext {
  readonly config: Config;
  readonly operations: readonly AnyOperation[];
  /** The one access decision: key, scopes, plan, usage. */
  readonly access: AccessControl;
  readonly metrics: Metrics;
  /** The managed keys, when a store is open (server.ts); none in most tests. */
  readonly managed: ManagedKeys | undefined;
  /** False sends every GraphQL request through yoga's adapter (tests compare both). */
  readonly graphqlFastPath: boolean;
}

/** A surface: its routes, and the paths it adds to the OpenAPI document. */
export interface Surface {
  readonly name: string;
  /**
   * The paths and components it serves outside `/v1/<area>/<name>`, documented even when
   * off; given the operations served (recipes name them and run their example).
   */
  readonly document?: (operations: readonly AnyOperation[]) => OpenApiFragment;
  register(app: FastifyInstance, context: SurfaceContext): void | Promise<void>;
}
