import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { createKeyDirectory, type KeyDirectory } from "./directory.js";
import { hashSecret, type KeyStore, openKeyStore } from "./store.js";

const opened: { store: KeyStore; directory?: KeyDirectory }[] = [];
afterEach(async () => {
  for (const { store, directory } of opened.splice(0)) {
    directory?.close();
    await store.close();
  }
});

/** A lookup as the key checker makes it: the value and its digest. */
const find = (directory: KeyDirectory, presented: string) =>
  directory.find(presented, hashSecret(presented));

async function setup(now = () => Date.now()) {
  const store = await openKeyStore({ dataDir: mkdtempSync(join(tmpdir(), "ucs-dir-")) });
  const directory = createKeyDirectory(store, { pollMs: 60_000, now });
  opened.push({ store, directory });
  return { store, directory };
}

describe("the key directory", () => {
  it("finds a managed key by its secret, as a principal with its scopes and plan", async () => {
    const { store, directory } = await setup();
    const { record, secret } = await store.create({
      name: "acme",
      scopes: ["math"],
      plan: { limit: 5, windowSeconds: 60 },
    });
    await directory.start();
    expect(find(directory, secret)).toMatchObject({
      id: record.id,
      prefix: record.prefix,
      name: "acme",
      scopes: ["math"],
      plan: { limit: 5, windowSeconds: 60 },
      managed: true,
    });
    expect(find(directory, `${secret}x`)).toBeUndefined();
    expect(find(directory, "x".repeat(10_000))).toBeUndefined();
  });

  it("sees a change once refreshed: revoked, disabled, rolled, scoped anew", async () => {
    const { store, directory } = await setup();
    const a = await store.create({ name: "a" });
    const b = await store.create({ name: "b" });
    await directory.start();
    await store.revoke(a.record.id);
    await store.update(b.record.id, { scopes: ["hash"] });
    // Not read yet: the directory holds what it read.
    expect(find(directory, a.secret)).toBeDefined();
    await directory.refresh();
    expect(find(directory, a.secret)).toBeUndefined();
    expect(find(directory, b.secret)?.scopes).toEqual(["hash"]);
    await store.update(b.record.id, { disabled: true });
    await directory.refresh();
    expect(find(directory, b.secret)).toBeUndefined();
    expect(directory.record(a.record.id)).toBeUndefined();
  });

  it("a rolled key's old secret works for the overlap, then not", async () => {
    let clock = Date.now();
    const { store, directory } = await setup(() => clock);
    const { record, secret: old } = await store.create({ name: "r" });
    await directory.start();
    const rolled = await store.roll(record.id, 60);
    await directory.refresh();
    expect(find(directory, rolled?.secret ?? "")?.id).toBe(record.id);
    expect(find(directory, old)?.id).toBe(record.id);
    clock += 61_000;
    expect(find(directory, old)).toBeUndefined();
    expect(find(directory, rolled?.secret ?? "")?.id).toBe(record.id);
  });

  it("an expired key is refused from its expiry on", async () => {
    let clock = Date.parse("2030-01-01T00:00:00Z");
    const { store, directory } = await setup(() => clock);
    const { secret } = await store.create({ name: "e", expiresAt: "2030-01-01T00:01:00Z" });
    await directory.start();
    expect(find(directory, secret)).toBeDefined();
    clock += 60_000;
    expect(find(directory, secret)).toBeUndefined();
  });

  it("keeps the keys it holds while the store cannot be read, and says so", async () => {
    const store = await openKeyStore({ dataDir: mkdtempSync(join(tmpdir(), "ucs-dir-")) });
    const errors: Error[] = [];
    const directory = createKeyDirectory(store, { pollMs: 20, onError: (e) => errors.push(e) });
    const { secret } = await store.create({ name: "k" });
    await directory.start();
    await store.close();
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(errors.length).toBeGreaterThan(0);
    expect(find(directory, secret)).toBeDefined();
    directory.close();
  });

  it("refuses to start when the store cannot be read", async () => {
    const store = await openKeyStore({ dataDir: mkdtempSync(join(tmpdir(), "ucs-dir-")) });
    await store.close();
    await expect(createKeyDirectory(store).start()).rejects.toThrow();
  });
});
