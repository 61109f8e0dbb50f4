import { createServer, type Server } from "node:http";
import { connect, type Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { type ConnectionLimits, connectionsOf, trackConnections } from "./connections.js";

const servers: Server[] = [];
const clients: Socket[] = [];
afterEach(async () => {
  for (const socket of clients.splice(0)) socket.destroy();
  await Promise.all(servers.splice(0).map((s) => new Promise((r) => s.close(r))));
});

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function serve(limits: ConnectionLimits): Promise<{ server: Server; port: number }> {
  const server = createServer((_request, response) => response.end("{}"));
  trackConnections(server, limits);
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  return { server, port: typeof address === "object" && address ? address.port : 0 };
}

/** A client connection, with what it received and whether it was closed. */
function open(port: number, send = "") {
  const socket = connect({ host: "127.0.0.1", port });
  clients.push(socket);
  const seen = { text: "", closed: false, socket };
  socket.on("data", (chunk) => {
    seen.text += chunk.toString("latin1");
  });
  socket.on("close", () => {
    seen.closed = true;
  });
  socket.on("error", () => {});
  if (send) socket.on("connect", () => socket.write(send));
  return seen;
}

describe("trackConnections", () => {
  it("past the per-address bound, the connection idle the longest is closed; the newest stays", async () => {
    const events: string[] = [];
    const { port } = await serve({
      max: 100,
      perAddress: 3,
      onRefused: (reason, scope) => events.push(`${reason}:${scope}`),
    });
    const first = [open(port), open(port), open(port)];
    await sleep(100);
    const newest = open(port);
    await sleep(100);
    expect(first.map((c) => c.closed)).toEqual([true, false, false]);
    expect(newest.closed).toBe(false);
    expect(events).toEqual(["evicted:address"]);
  });

  it("busy connections are never closed; past twice the bound a new one gets a 503", async () => {
    const { server, port } = await serve({ max: 100, perAddress: 2 });
    // Headers begun, never finished: a request arriving.
    const busy = [1, 2, 3, 4].map(() => open(port, "GET / HTTP/1.1\r\nHost: x\r\n"));
    await sleep(150);
    const refused = open(port);
    await sleep(150);
    expect(busy.every((c) => !c.closed)).toBe(true);
    expect(refused.text).toMatch(/^HTTP\/1\.1 503 /);
    expect(refused.text).toContain('{"detail":"Too many connections from this address"}');
    expect(connectionsOf(server).size).toBe(4);
  });

  it("the process bound works the same across addresses", async () => {
    const { server, port } = await serve({ max: 2, perAddress: 0 });
    const first = [open(port), open(port)];
    await sleep(100);
    open(port);
    await sleep(100);
    expect(first.map((c) => c.closed)).toEqual([true, false]);
    expect(connectionsOf(server).size).toBe(2);
  });

  it("a second call for the same server returns the same record", async () => {
    const { server } = await serve({ max: 2, perAddress: 0 });
    expect(trackConnections(server, { max: 5, perAddress: 5 })).toBe(connectionsOf(server));
  });
});
