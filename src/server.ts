/**
 * Starts the service: reads the configuration, then either serves in this process or,
 * with WORKERS > 1, runs a primary that forks the workers. Listening, draining and
 * exiting live here; everything the service answers is built by app.ts.
 */
import cluster from "node:cluster";
import { runPrimary } from "./cluster.js";
import { type Config, ConfigError, loadConfig } from "./config.js";
import { connectionsOf } from "./http/connections.js";
import { drainConnections } from "./http/drain.js";
import { handleProcessFaults } from "./runtime/faults.js";
import { holdTickShape } from "./runtime/tick-shape.js";

function announceGeneratedKey(config: Config): void {
  if (!config.generatedKey) return;
  // Printed once, outside the structured log, which never carries keys.
  process.stdout.write(
    `\nNo API_KEYS configured: generated a key for this run (development only):\n\n  X-API-Key: ${config.apiKeys[0]}\n\n`,
  );
}

/**
 * Serves in this process until SIGTERM/SIGINT, then drains: /ready answers 503 and every
 * answer says `Connection: close` for DRAIN_DELAY seconds (load balancers stop sending),
 * the server stops accepting, every request already received is answered, and each
 * connection closes after its last answer or once idle (see http/drain.ts). Exits 0 when
 * drained, 1 if SHUTDOWN_TIMEOUT passes first.
 */
async function serve(config: Config): Promise<void> {
  // Imported here: a cluster primary (WORKERS > 1) serves nothing and never loads the app.
  // The operator's modules are vetted in a worker thread: begun first, it runs beside the
  // loading of the rest of the service (the key store, the app's packages).
  const { operationsDirs, prepareOperations } = await import("./registry/loader.js");
  void prepareOperations(operationsDirs(config.operationsDirs));
  const { buildReloadableApp } = await import("./reload.js");
  const { openManagedKeys } = await import("./access/keys/managed.js");
  // Refuses to start, saying why, when the key store cannot be reached (main's catch).
  const managedKeys = await openManagedKeys(config, startLog);
  const service = await buildReloadableApp(config, { managedKeys });
  const { app } = service;
  for (const problem of config.weakSecrets) {
    app.log.warn(`${problem}: accepted outside production, refused when NODE_ENV is production`);
  }
  // A module's floating rejection (at a reload's import, or later) must not end the process.
  handleProcessFaults(app.log, config.operationsDirs);
  const connections = connectionsOf(app.server);
  await holdTickShape();
  await app.listen({ host: config.host, port: config.port });
  // From here, not while starting: the start grows the heap by more than a look collects, and
  // its looks' full collections (hundreds of ms each at a few hundred modules) delayed it.
  const { startIdleCollection } = await import("./observability/idle-collection.js");
  startIdleCollection();
  // Where the docs, the keys and the reload are: once, not once per worker.
  if (cluster.isPrimary || cluster.worker?.id === 1) {
    const { startNotes } = await import("./start-log.js");
    const { port } = app.server.address() as { port: number };
    const pid = cluster.isPrimary ? process.pid : process.ppid;
    for (const { fields, message } of startNotes(config, port, pid)) app.log.info(fields, message);
  }
  // SIGHUP: load the operations afresh (see reload.ts); a refused set leaves the old one.
  process.on("SIGHUP", () => {
    app.log.info("SIGHUP: reloading the operations");
    void service.reload();
  });

  let stopping = false;
  const stop = async (signal: NodeJS.Signals) => {
    if (stopping) return;
    stopping = true;
    app.lifecycle.draining = true;
    app.log.info({ signal, drainDelaySeconds: config.drainDelaySeconds }, "draining");
    await new Promise((resolve) => setTimeout(resolve, config.drainDelaySeconds * 1000));
    // SHUTDOWN_TIMEOUT is what in-flight requests get once the listener closes.
    setTimeout(() => {
      app.log.error({ timeoutSeconds: config.shutdownTimeoutSeconds }, "shutdown timed out");
      process.exit(1);
    }, config.shutdownTimeoutSeconds * 1000).unref();
    await drainConnections(app.server, connections);
    await app.close();
    // The usage counted since the last write, written before exiting.
    await managedKeys
      .close()
      .catch((error: unknown) =>
        app.log.error({ err: error }, "key store: the last usage could not be written"),
      );
    app.log.info("stopped");
    process.exit(0);
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
}

/** Store warnings before the app's logger exists: one JSON line, as pino writes them. */
const startLog = {
  warn(fields: Record<string, unknown>, message: string): void {
    const err = fields.err instanceof Error ? { message: fields.err.message } : fields.err;
    process.stdout.write(`${JSON.stringify({ level: 40, time: Date.now(), msg: message, err })}\n`);
  },
};

async function main(): Promise<void> {
  const config = loadConfig();
  if (cluster.isPrimary && config.workers > 1) {
    announceGeneratedKey(config);
    // Once, before the workers: the store is reachable and migrated (workers would race).
    const { openManagedKeys } = await import("./access/keys/managed.js");
    await (await openManagedKeys(config, startLog)).close();
    runPrimary(config);
    return;
  }
  if (cluster.isPrimary) announceGeneratedKey(config);
  await serve(config);
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`utility-calculation-service failed to start: ${message}\n`);
  process.exit(1);
});
