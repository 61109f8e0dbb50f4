/**
 * Configuration from the environment, read once at start. Anything invalid stops the
 * start with a message naming the variable, rather than running half-configured.
 */
import { randomBytes } from "node:crypto";

export interface Config {
  host: string;
  port: number;
  /** Accepted API keys. */
  apiKeys: string[];
  /** True when the keys were generated because none were configured (development only). */
  generatedKey: boolean;
  production: boolean;
  logLevel: string;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function portFrom(value: string | undefined): number {
  if (value === undefined || value === "") return 3000;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, not '${value}'`);
  }
  return Number(value);
}

/** Keys are comma-separated; blanks around and empty entries are ignored. */
export function parseApiKeys(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((key) => key.trim())
    .filter((key) => key.length > 0);
}

/**
 * Reads the configuration from `env`.
 *
 * @example
 * loadConfig({ API_KEYS: "k1,k2", PORT: "8080" }).apiKeys; // ["k1", "k2"]
 */
export function loadConfig(env: NodeJS.ProcessEnv = process.env): Config {
  const production = env.NODE_ENV === "production";
  let apiKeys = parseApiKeys(env.API_KEYS);
  let generatedKey = false;
  if (apiKeys.length === 0) {
    if (production) {
      throw new ConfigError("API_KEYS must name at least one key when NODE_ENV is production");
    }
    apiKeys = [randomBytes(24).toString("base64url")];
    generatedKey = true;
  }
  const logLevel = env.LOG_LEVEL ?? "info";
  if (!LOG_LEVELS.includes(logLevel)) {
    throw new ConfigError(`LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, not '${logLevel}'`);
  }
  return {
    host: env.HOST || "127.0.0.1",
    port: portFrom(env.PORT),
    apiKeys,
    generatedKey,
    production,
    logLevel,
  };
}
