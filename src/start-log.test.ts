import path from "node:path";
import { describe, expect, it } from "vitest";
import { startNotes } from "./start-log.js";

const base = { host: "127.0.0.1", dataDir: "./data" };

describe("the start log", () => {
  it("says where the docs are", () => {
    const [serving] = startNotes(base, 3000, 42);
    expect(serving?.message).toContain("http://127.0.0.1:3000/docs");
    expect(serving?.fields.docs).toBe("http://127.0.0.1:3000/docs");
    expect(startNotes({ ...base, host: "0.0.0.0" }, 8080, 42)[0]?.fields.url).toBe(
      "http://127.0.0.1:8080",
    );
    expect(startNotes({ ...base, host: "::1" }, 8080, 42)[0]?.fields.url).toBe("http://[::1]:8080");
  });

  it("says where the keys live and how to create the first", () => {
    const keys = startNotes(base, 3000, 42)[1];
    const file = path.resolve("data", "keys.sqlite");
    expect(keys?.fields.keyStore).toBe(file);
    expect(keys?.message).toContain(`stored in ${file}`);
    expect(keys?.message).toContain("npx ucs keys create --name my-first-key");
    expect(keys?.message).not.toContain("--data-dir");
    expect(keys?.message).toContain("set ADMIN_TOKEN");
  });

  it("names a DATA_DIR that is not the default, the admin API when on, PostgreSQL", () => {
    const other = startNotes({ ...base, dataDir: "/srv/ucs" }, 3000, 42)[1]?.message;
    expect(other).toContain("--data-dir /srv/ucs");
    const admin = startNotes({ ...base, adminToken: "x".repeat(32) }, 3000, 42)[1]?.message;
    expect(admin).toContain("POST http://127.0.0.1:3000/admin/v1/keys");
    const pg = startNotes({ ...base, databaseUrl: "postgres://u:secret@h/db" }, 3000, 42)[1];
    expect(pg?.message).toContain("PostgreSQL");
    expect(JSON.stringify(pg)).not.toContain("secret");
  });

  it("names the pid to signal", () => {
    expect(startNotes(base, 3000, 4242)[2]?.message).toContain("kill -HUP 4242");
  });
});
