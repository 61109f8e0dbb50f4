/**
 * The managed keys of a process: the store (SQLite under DATA_DIR, or PostgreSQL), the
 * directory of keys held in memory, and the usage recorder, opened together at start and
 * closed together at the end (the usage written one last time). They outlive reloads.
 */
import type { Config } from "../../config.js";
import { throttledWarning } from "../from-config.js";
import { createKeyDirectory, type KeyDirectory } from "./directory.js";
import { type KeyStore, openKeyStore } from "./store.js";
import { createUsageRecorder, type UsageRecorder } from "./usage.js";

export interface ManagedKeys {
  store: KeyStore;
  directory: KeyDirectory;
  usage: UsageRecorder;
  /** Stops polling, writes the usage counted so far, closes the store. */
  close(): Promise<void>;
}

/** Where store failures are told, at most once a minute each. */
export interface KeyStoreLog {
  warn(fields: Record<string, unknown>, message: string): void;
}

/**
 * Opens the store for `config` (migrating it) and reads every key. Rejects, saying why,
 * when the store cannot be reached: the service must not start without its keys.
 */
export async function openManagedKeys(
  config: Pick<Config, "dataDir" | "databaseUrl">,
  log: KeyStoreLog,
): Promise<ManagedKeys> {
  const store = await openKeyStore({ dataDir: config.dataDir, databaseUrl: config.databaseUrl });
  const directory = createKeyDirectory(store, {
    onError: throttledWarning((error) =>
      log.warn({ err: error }, "key store unreachable; the keys already read keep working"),
    ),
  });
  try {
    await directory.start();
  } catch (error) {
    await store.close().catch(() => {});
    throw new Error(`cannot read the keys from the ${store.kind} key store: ${String(error)}`);
  }
  const usage = createUsageRecorder(store, {
    onError: throttledWarning((error) =>
      log.warn({ err: error }, "key store unreachable; usage is kept and written later"),
    ),
  });
  return {
    store,
    directory,
    usage,
    async close() {
      directory.close();
      try {
        await usage.close();
      } finally {
        await store.close();
      }
    },
  };
}
