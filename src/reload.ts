/**
 * Reloading the operations without a restart (SIGHUP). One HTTP server listens for the
 * whole life of the process; fastify's `serverFactory` makes it hand each request to
 * whichever app is current. A reload loads and checks the modules afresh, builds a
 * complete new app from them (REST routes, GraphQL schema, OpenAPI, docs) and, only once
 * it is ready, points the server at it: requests already running finish in the old app,
 * the next request is served by the new one, and no connection is closed, so no request
 * fails. A set that fails its checks is refused and the old one keeps serving.
 *
 * Chosen over replacing cluster workers one at a time: it works with WORKERS=1 (the
 * default), keeps keep-alive connections open (closing them is where a client's request
 * races the close), and keeps the in-process quota counters and metrics (the new app takes
 * them over).
 */
import type { IncomingMessage, ServerResponse } from "node:http";
import type { FastifyInstance, FastifyServerFactory } from "fastify";
import type { ManagedKeys } from "./access/keys/managed.js";
import type { Config } from "./config.js";
import { http } from "./http/node-http.js";
import { httpServer } from "./http/server-options.js";
import { loadOperations, operationsDirs, prepareOperations } from "./registry/loader.js";

const { createServer } = http;

type Handler = (request: IncomingMessage, response: ServerResponse) => void;

export interface ReloadableApp {
  /** The app that owns the listening server: listen on it, close it to stop. */
  app: FastifyInstance;
  /** The app serving requests now. */
  current(): FastifyInstance;
  /** Loads the operations afresh; true once the new set serves, false if it was refused. */
  reload(): Promise<boolean>;
}

/**
 * How long a reload may take. A module whose import never settles (a top-level `await` on
 * a promise nothing resolves) would otherwise hold every later reload behind it, silently.
 */
export const RELOAD_TIMEOUT_MS = 60_000;
const TIMED_OUT = Symbol("reload timed out");

/**
 * Builds the service's app around a server whose requests go to the current app.
 *
 * @example
 * const service = await buildReloadableApp(config);
 * await service.app.listen({ port: 3000 });
 * process.on("SIGHUP", () => void service.reload());
 */
export async function buildReloadableApp(
  config: Config,
  options: { reloadTimeoutMs?: number; managedKeys?: ManagedKeys } = {},
): Promise<ReloadableApp> {
  const keys = options.managedKeys ? { managedKeys: options.managedKeys } : {};
  const reloadTimeoutMs = options.reloadTimeoutMs ?? RELOAD_TIMEOUT_MS;
  // The operator's modules are vetted in a worker that takes a while to start: begun before
  // the app's packages load, it runs beside them.
  void prepareOperations(operationsDirs(config.operationsDirs));
  const { buildApp } = await import("./app.js");
  let dispatch: Handler | undefined;
  // The real server, created once, as fastify would create it itself.
  const listening: FastifyServerFactory = (handler, options) => {
    dispatch = handler as Handler;
    return httpServer((request, response) => (dispatch as Handler)(request, response), options);
  };
  const app = await buildApp({ config, serverFactory: listening, ...keys });
  let current = app;
  let queue: Promise<boolean> = Promise.resolve(true);

  const reloadNow = async (): Promise<boolean> => {
    const started = performance.now();
    let next: FastifyInstance;
    let handler: Handler | undefined;
    let count = 0;
    let timer: NodeJS.Timeout | undefined;
    // The module being imported, if any: the one a timed-out reload waits on.
    let importing: string | undefined;
    try {
      const build = async () => {
        const operations = await loadOperations(operationsDirs(config.operationsDirs), {
          fresh: true,
          importing: (file) => {
            importing = file;
          },
          // One line per refused module, naming it and why, before the reload's own line.
          refused: (file, reason) => {
            app.log.error({ file, reason }, "operation module refused");
          },
        });
        count = operations.length;
        const built = await buildApp({
          ...keys,
          config,
          operations,
          replacing: current,
          // Never listens: its handler is all the real server needs.
          serverFactory: (h) => {
            handler = h as Handler;
            return createServer();
          },
        });
        await built.ready();
        return built;
      };
      const timedOut = new Promise<never>((_resolve, reject) => {
        timer = setTimeout(() => reject(TIMED_OUT), reloadTimeoutMs);
      });
      next = await Promise.race([build(), timedOut]);
    } catch (error) {
      if (error === TIMED_OUT) {
        app.log.error(
          { timeoutMs: reloadTimeoutMs, importing },
          importing === undefined
            ? "reload refused: the operations did not load in time; the previous set keeps serving"
            : `reload refused: the import of ${importing} never finished; the previous set keeps serving`,
        );
      } else {
        app.log.error(
          { err: error },
          "reload refused: the operations failed their checks; the previous set keeps serving",
        );
      }
      return false;
    } finally {
      clearTimeout(timer);
    }
    dispatch = handler;
    current = next;
    app.log.info(
      { operations: count, ms: Math.round(performance.now() - started) },
      "operations reloaded",
    );
    return true;
  };

  return {
    app,
    current: () => current,
    // One reload at a time: a second SIGHUP waits for the first.
    reload: () => {
      queue = queue.then(reloadNow, reloadNow);
      return queue;
    },
  };
}
