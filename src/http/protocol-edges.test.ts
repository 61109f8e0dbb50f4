/**
 * The server's listeners across reloads: one set per server, handing requests to the app
 * that is current. What each answer is: test/abuse/http-abuse.test.ts ("answers Node would
 * write by itself").
 */
import { mkdir, mkdtemp, rm, writeFile } from "node:fs/promises";
import { connect } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../config.js";
import { buildReloadableApp, type ReloadableApp } from "../reload.js";

const moduleText = (name: string) => `import { defineOperation, z } from "#kit";
export default defineOperation({
  area: "edge",
  name: "${name}",
  summary: "A reload fixture",
  description: "A reload fixture.",
  input: z.object({}),
  output: z.object({ ok: z.boolean() }),
  examples: [{ title: "ok", input: {}, output: { ok: true } }],
  handler: () => ({ ok: true }),
});
`;

/** The status line of the answer to `request` (sent whole), on a connection of its own. */
function statusLine(port: number, request: string): Promise<string> {
  return new Promise((resolve) => {
    const socket = connect(port, "127.0.0.1");
    let text = "";
    const timer = setTimeout(() => socket.destroy(), 3000);
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
    });
    socket.on("error", () => {});
    socket.on("close", () => {
      clearTimeout(timer);
      resolve(text.split("\r\n", 1)[0] ?? "");
    });
    socket.on("connect", () => socket.write(request));
  });
}

describe("protocol edges across reloads", () => {
  let dir: string;
  let service: ReloadableApp;
  let port = 0;

  beforeAll(async () => {
    dir = await mkdtemp(path.join(tmpdir(), "ucs-edges-"));
    await mkdir(path.join(dir, "edge"));
    await writeFile(path.join(dir, "edge", "first.ts"), moduleText("first"));
    service = await buildReloadableApp(
      loadConfig({ API_KEYS: "k", OPERATIONS_DIRS: dir, LOG_LEVEL: "error" }),
    );
    await service.app.listen({ host: "127.0.0.1", port: 0 });
    const address = service.app.server.address();
    port = typeof address === "object" && address ? address.port : 0;
  });

  afterAll(async () => {
    await service?.app.close();
    await rm(dir, { recursive: true, force: true });
  });

  it("keep one listener each, and hand CONNECT and 100-continue to the current app", async () => {
    await writeFile(path.join(dir, "edge", "added.ts"), moduleText("added"));
    expect(await service.reload()).toBe(true);
    expect(await service.reload()).toBe(true);
    const server = service.app.server;
    for (const event of ["checkContinue", "checkExpectation", "connect"]) {
      expect(server.listenerCount(event), event).toBe(1);
    }
    // Only the reloaded app serves this path: the first app would answer 404.
    const head = "Host: 127.0.0.1\r\nConnection: close\r\n";
    expect(await statusLine(port, `CONNECT /v1/edge/added HTTP/1.1\r\n${head}\r\n`)).toBe(
      "HTTP/1.1 405 Method Not Allowed",
    );
    expect(
      await statusLine(
        port,
        `POST /v1/edge/added HTTP/1.1\r\n${head}Content-Length: 2\r\nExpect: 100-continue\r\n\r\n`,
      ),
    ).toBe("HTTP/1.1 405 Method Not Allowed");
  });
});
