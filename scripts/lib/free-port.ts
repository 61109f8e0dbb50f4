/** Dev tooling shared by the bench, the soak and the process tests. */
import { createServer } from "node:net";

/**
 * A port nothing listens on right now, on 127.0.0.1: bind port 0, read the port, close.
 *
 * @example
 * const port = await freePort(); // e.g. 41873
 */
export async function freePort(host = "127.0.0.1"): Promise<number> {
  const server = createServer();
  server.unref();
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, host, resolve);
  });
  const address = server.address();
  await new Promise<void>((resolve) => server.close(() => resolve()));
  if (address === null || typeof address === "string") throw new Error("no port was assigned");
  return address.port;
}
