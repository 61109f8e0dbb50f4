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
  /** Units (REST requests, GraphQL operation fields) per key and window; 0 turns it off. */
  rateLimit: number;
  rateLimitWindowSeconds: number;
  /** Failed authentications (API keys, the metrics token) per client address and window; 0 turns it off. */
  authFailureLimit: number;
  authFailureWindowSeconds: number;
  /** Shared counter store for several replicas; unset keeps counters in memory. */
  redisUrl?: string;
  /** Browser origins allowed by CORS; empty means none. */
  corsOrigins: string[];
  /** Worker processes on this machine (node:cluster); 1 runs in-process. */
  workers: number;
  /** Seconds /ready answers 503 before the server stops accepting, on SIGTERM. */
  drainDelaySeconds: number;
  /** Seconds in-flight requests get to finish on SIGTERM before the process exits anyway. */
  shutdownTimeoutSeconds: number;
  /** Seconds a client has to send the request headers (slow-client protection). */
  headersTimeoutSeconds: number;
  /** Seconds a client has to send the whole request. */
  requestTimeoutSeconds: number;
  /** Bearer token for /metrics; unset means /metrics takes a valid API key instead. */
  metricsToken?: string;
  /** Whose X-Forwarded-For to believe: `true` (any hop), or the load balancers' addresses/CIDRs. */
  trustProxy: boolean | string;
  /** Operator folders of extra operation modules, loaded after the built-in ones. */
  operationsDirs: string[];
  /** Open connections the process holds at once; past it, idle ones make room, else new ones are refused. */
  maxConnections: number;
  /** Open connections one client address may hold (0: no bound); not applied with TRUST_PROXY. */
  maxConnectionsPerAddress: number;
  /** Keys that pass but are weak (outside production only): what to warn about at start. */
  weakSecrets: string[];
  /** Where the embedded key store (SQLite) lives; unused with `databaseUrl`. */
  dataDir: string;
  /** PostgreSQL for the key store, shared by replicas (postgres://…); unset: SQLite. */
  databaseUrl?: string;
  /** Bearer token of the admin API (/admin/v1); unset: the admin API answers 404. */
  adminToken?: string;
  /** Tools an MCP tool set lists before it lists `search_tools`/`call_tool` instead; 0: never. */
  mcpToolSearchThreshold: number;
}

export class ConfigError extends Error {
  override name = "ConfigError";
}

/** Failed authentications an address may have per window before it is refused (429). */
export const DEFAULT_AUTH_FAILURE_LIMIT = 100;

const LOG_LEVELS = ["fatal", "error", "warn", "info", "debug", "trace", "silent"];

function portFrom(value: string | undefined): number {
  if (value === undefined || value === "") return 3000;
  if (!/^\d+$/.test(value) || Number(value) > 65535) {
    throw new ConfigError(`PORT must be an integer from 0 to 65535, not '${value}'`);
  }
  return Number(value);
}

function integerFrom(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  { min = 0, max = 1_000_000_000 }: { min?: number; max?: number } = {},
): number {
  const value = env[name];
  if (value === undefined || value === "") return fallback;
  if (!/^\d+$/.test(value) || Number(value) < min || Number(value) > max) {
    throw new ConfigError(`${name} must be an integer from ${min} to ${max}, not '${value}'`);
  }
  return Number(value);
}

/** Comma-separated list, blanks trimmed, empty entries dropped. */
export function listFrom(value: string | undefined): string[] {
  return (value ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item.length > 0);
}

function trustProxyFrom(value: string | undefined): boolean | string {
  if (value === undefined || value === "" || value === "false") return false;
  if (value === "true") return true;
  return value;
}

/** Keys are comma-separated; blanks around and empty entries are ignored. */
export function parseApiKeys(value: string | undefined): string[] {
  return listFrom(value);
}

/** Fewest characters, and fewest distinct ones, a secret must have in production. */
export const MIN_SECRET_LENGTH = 32;
export const MIN_SECRET_DISTINCT = 10;

/**
 * Why `secret` is refused in any mode (undefined when it may be used): HTTP header values
 * are read as Latin-1 bytes, so only visible ASCII arrives as it was configured.
 */
function secretAlphabetProblem(secret: string): string | undefined {
  return /^[\x21-\x7e]+$/.test(secret)
    ? undefined
    : "may hold only visible ASCII characters (no spaces, no accents: HTTP headers carry bytes)";
}

/** Why `secret` is too weak to guard a production service, or undefined. */
export function secretStrengthProblem(secret: string): string | undefined {
  if (secret.length < MIN_SECRET_LENGTH) {
    return `is ${secret.length} characters long; at least ${MIN_SECRET_LENGTH} are needed`;
  }
  if (new Set(secret).size < MIN_SECRET_DISTINCT) {
    return `has fewer than ${MIN_SECRET_DISTINCT} distinct characters`;
  }
  return undefined;
}

/**
 * Checks each configured secret of `name`: a bad alphabet stops any start; a weak one
 * stops a production start, and is returned (for a warning) otherwise. The secret itself
 * is never quoted, only its position.
 */
function checkSecrets(
  name: string,
  secrets: readonly string[],
  production: boolean,
  weak: string[],
  strictWhy = "when NODE_ENV is production",
): void {
  secrets.forEach((secret, index) => {
    const which = secrets.length > 1 ? `${name} entry ${index + 1}` : name;
    const alphabet = secretAlphabetProblem(secret);
    if (alphabet) throw new ConfigError(`${which} ${alphabet}`);
    const strength = secretStrengthProblem(secret);
    if (!strength) return;
    if (production) {
      throw new ConfigError(`${which} ${strength} ${strictWhy} (e.g. openssl rand -base64 32)`);
    }
    weak.push(`${which} ${strength}`);
  });
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
  const weakSecrets: string[] = [];
  if (!generatedKey) checkSecrets("API_KEYS", apiKeys, production, weakSecrets);
  const metricsToken = env.METRICS_TOKEN || undefined;
  if (metricsToken) checkSecrets("METRICS_TOKEN", [metricsToken], production, weakSecrets);
  const adminToken = env.ADMIN_TOKEN || undefined;
  if (adminToken) {
    checkSecrets(
      "ADMIN_TOKEN",
      [adminToken],
      true,
      weakSecrets,
      "(the admin API's token, in every mode)",
    );
  }
  const databaseUrl = env.DATABASE_URL || undefined;
  if (databaseUrl !== undefined && !/^postgres(ql)?:\/\//.test(databaseUrl)) {
    throw new ConfigError("DATABASE_URL must be a postgres:// URL");
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
    rateLimit: integerFrom(env, "RATE_LIMIT", 0),
    rateLimitWindowSeconds: integerFrom(env, "RATE_LIMIT_WINDOW", 60, { min: 1, max: 86_400 }),
    authFailureLimit: integerFrom(env, "AUTH_FAILURE_LIMIT", DEFAULT_AUTH_FAILURE_LIMIT),
    authFailureWindowSeconds: integerFrom(env, "AUTH_FAILURE_WINDOW", 60, { min: 1, max: 86_400 }),
    redisUrl: env.REDIS_URL || undefined,
    corsOrigins: listFrom(env.CORS_ORIGINS),
    workers: integerFrom(env, "WORKERS", 1, { min: 1, max: 64 }),
    drainDelaySeconds: integerFrom(env, "DRAIN_DELAY", 0, { max: 300 }),
    shutdownTimeoutSeconds: integerFrom(env, "SHUTDOWN_TIMEOUT", 10, { min: 1, max: 600 }),
    headersTimeoutSeconds: integerFrom(env, "HEADERS_TIMEOUT", 10, { min: 1, max: 600 }),
    requestTimeoutSeconds: integerFrom(env, "REQUEST_TIMEOUT", 30, { min: 1, max: 600 }),
    metricsToken,
    trustProxy: trustProxyFrom(env.TRUST_PROXY),
    operationsDirs: listFrom(env.OPERATIONS_DIRS),
    maxConnections: integerFrom(env, "MAX_CONNECTIONS", 1024, { min: 16, max: 100_000 }),
    maxConnectionsPerAddress: integerFrom(env, "MAX_CONNECTIONS_PER_ADDRESS", 128, {
      max: 100_000,
    }),
    weakSecrets,
    dataDir: env.DATA_DIR || "./data",
    ...(databaseUrl ? { databaseUrl } : {}),
    ...(adminToken ? { adminToken } : {}),
    mcpToolSearchThreshold: integerFrom(env, "MCP_TOOL_SEARCH_THRESHOLD", 40, { max: 10_000 }),
  };
}
