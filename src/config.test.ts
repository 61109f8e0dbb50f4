import { describe, expect, it } from "vitest";
import { ConfigError, DEFAULT_AUTH_FAILURE_LIMIT, loadConfig } from "./config.js";

const STRONG = "k".concat("0123456789abcdefghijklmnopqrstuvwxyz");

describe("secrets", () => {
  it.each<[string, Record<string, string>, string]>([
    ["a short key", { API_KEYS: "short-key" }, "API_KEYS is 9 characters long; at least 32"],
    ["a key of few characters", { API_KEYS: "ab".repeat(20) }, "fewer than 10 distinct"],
    ["the second key", { API_KEYS: `${STRONG},tiny` }, "API_KEYS entry 2 is 4 characters long"],
    ["a short metrics token", { API_KEYS: STRONG, METRICS_TOKEN: "m" }, "METRICS_TOKEN is 1"],
  ])("production refuses %s, naming the variable, never the secret", (_name, env, message) => {
    const load = () => loadConfig({ NODE_ENV: "production", ...env });
    expect(load).toThrow(ConfigError);
    expect(load).toThrow(message);
    try {
      load();
    } catch (error) {
      const secrets = [...(env.API_KEYS ?? "").split(","), env.METRICS_TOKEN ?? ""];
      for (const secret of secrets.filter((s) => s.length > 3)) {
        expect((error as Error).message).not.toContain(secret);
      }
    }
  });

  it("outside production a weak key serves, and is named for a warning", () => {
    const config = loadConfig({ API_KEYS: "dev-key" });
    expect(config.apiKeys).toEqual(["dev-key"]);
    expect(config.weakSecrets).toEqual(["API_KEYS is 7 characters long; at least 32 are needed"]);
  });

  it.each([
    ["a non-ASCII key", { API_KEYS: `ключ${STRONG}` }],
    ["a key with a space", { API_KEYS: `${STRONG} x` }],
    [
      "a metrics token with a control character",
      { API_KEYS: STRONG, METRICS_TOKEN: `${STRONG}\u0001` },
    ],
  ])("any mode refuses %s: headers carry bytes, not characters", (_name, env) => {
    expect(() => loadConfig(env)).toThrow(/visible ASCII/);
  });

  it("a strong key passes in production, with nothing to warn about", () => {
    const config = loadConfig({ NODE_ENV: "production", API_KEYS: STRONG, METRICS_TOKEN: STRONG });
    expect(config.weakSecrets).toEqual([]);
  });
});

describe("bounds before the key", () => {
  it("failed authentications are limited by default", () => {
    expect(loadConfig({}).authFailureLimit).toBe(DEFAULT_AUTH_FAILURE_LIMIT);
    expect(DEFAULT_AUTH_FAILURE_LIMIT).toBeGreaterThan(0);
    expect(loadConfig({ AUTH_FAILURE_LIMIT: "0" }).authFailureLimit).toBe(0);
  });

  it("connections: 1,024 in all and 128 per address by default, both tunable", () => {
    expect(loadConfig({})).toMatchObject({ maxConnections: 1024, maxConnectionsPerAddress: 128 });
    expect(loadConfig({ MAX_CONNECTIONS: "4096", MAX_CONNECTIONS_PER_ADDRESS: "0" })).toMatchObject(
      { maxConnections: 4096, maxConnectionsPerAddress: 0 },
    );
    expect(() => loadConfig({ MAX_CONNECTIONS: "3" })).toThrow(/MAX_CONNECTIONS must be/);
  });
});

describe("managed keys", () => {
  it("the store lives under ./data by default; DATABASE_URL must be PostgreSQL", () => {
    expect(loadConfig({})).toMatchObject({ dataDir: "./data" });
    expect(loadConfig({ DATA_DIR: "/var/lib/ucs" }).dataDir).toBe("/var/lib/ucs");
    expect(loadConfig({ DATABASE_URL: "postgres://u:p@db/ucs" }).databaseUrl).toBe(
      "postgres://u:p@db/ucs",
    );
    expect(() => loadConfig({ DATABASE_URL: "mysql://db" })).toThrow(/postgres:\/\//);
  });

  it("ADMIN_TOKEN needs 32 characters in every mode", () => {
    expect(() => loadConfig({ ADMIN_TOKEN: "short" })).toThrow(
      "ADMIN_TOKEN is 5 characters long; at least 32 are needed (the admin API's token, in every mode)",
    );
    expect(loadConfig({ ADMIN_TOKEN: STRONG }).adminToken).toBe(STRONG);
  });
});
