/**
 * What the start log tells a newcomer once the service listens: where the docs are, where
 * the managed keys live and how to make the first one, and how to reload the operations.
 * Built from the configuration only; server.ts writes the lines.
 */
import path from "node:path";
import { SQLITE_FILE } from "./access/keys/store.js";
import type { Config } from "./config.js";

export interface StartNote {
  fields: Record<string, unknown>;
  message: string;
}

/** The address a browser on this machine uses for `host` (a wildcard means any). */
function shownHost(host: string): string {
  if (host === "0.0.0.0" || host === "::" || host === "") return "127.0.0.1";
  return host.includes(":") ? `[${host}]` : host;
}

/**
 * The start log's lines for a service listening on `port`.
 *
 * @example
 * for (const { fields, message } of startNotes(config, 3000)) app.log.info(fields, message);
 */
export function startNotes(
  config: Pick<Config, "host" | "dataDir" | "databaseUrl" | "adminToken">,
  port: number,
  pid = process.pid,
): StartNote[] {
  const url = `http://${shownHost(config.host)}:${port}`;
  const serving: StartNote = {
    fields: { url, docs: `${url}/docs`, graphql: `${url}/graphql`, openapi: `${url}/openapi.json` },
    message: `serving ${url}: API reference and a try-it page at ${url}/docs, GraphQL at ${url}/graphql, MCP at ${url}/mcp`,
  };
  const create = "npx ucs keys create --name my-first-key";
  const admin = config.adminToken
    ? `, or POST ${url}/admin/v1/keys with the ADMIN_TOKEN`
    : " (set ADMIN_TOKEN for the admin API)";
  let keys: StartNote;
  if (config.databaseUrl) {
    keys = {
      fields: { keyStore: "postgresql" },
      message: `managed keys are stored in PostgreSQL (DATABASE_URL); the first: DATABASE_URL=… ${create}${admin}`,
    };
  } else {
    const file = path.resolve(config.dataDir, SQLITE_FILE);
    // The CLI reads DATA_DIR as the service does: named when it is not the default.
    const dataDir =
      path.resolve(config.dataDir) === path.resolve("data")
        ? ""
        : ` --data-dir ${path.resolve(config.dataDir)}`;
    keys = {
      fields: { keyStore: file },
      message: `managed keys are stored in ${file}; the first: ${create}${dataDir}${admin}`,
    };
  }
  const reload: StartNote = {
    fields: {},
    message: `kill -HUP ${pid} reloads the operations (a new or edited operations/ module too); kill -TERM ${pid} stops`,
  };
  return [serving, keys, reload];
}
