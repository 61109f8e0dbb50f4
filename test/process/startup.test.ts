/**
 * Starting without API_KEYS: refused in production (exit 1, the message names API_KEYS);
 * otherwise a key is generated, printed once as "X-API-Key: …", and works.
 */
import { afterAll, expect, it } from "vitest";
import { freePort, Server, stopAll, waitHealthy } from "./helpers.js";

afterAll(stopAll);

it("NODE_ENV=production without API_KEYS refuses to start", async () => {
  const server = new Server(await freePort(), { NODE_ENV: "production" });
  const exit = await server.waitExit(20_000);
  expect(exit, server.output()).toEqual({ code: 1, signal: null });
  expect(server.stderr).toMatch(/failed to start: .*API_KEYS/);
}, 60_000);

it("without NODE_ENV, a generated key is printed and works", async () => {
  const server = new Server(await freePort(), {});
  await waitHealthy(server);
  const match = /X-API-Key: (\S+)/.exec(server.stdout);
  expect(match, server.output()).not.toBeNull();
  const key = match?.[1] ?? "";
  expect(key.length).toBeGreaterThanOrEqual(20);
  expect(server.stdout.match(/X-API-Key:/g)).toHaveLength(1);

  const ok = await server.get("/v1/math/sum?numbers=0.1,0.2", { headers: { "x-api-key": key } });
  expect(ok.status).toBe(200);
  expect(JSON.parse(ok.body)).toMatchObject({ decimal: "0.3" });
  const wrong = await server.get("/v1/math/sum?numbers=1", { headers: { "x-api-key": `${key}x` } });
  expect(wrong.status).toBe(401);
  // The structured log identifies the key by id, never by the key itself.
  expect(server.logs().some((line) => JSON.stringify(line).includes(key))).toBe(false);
}, 60_000);
