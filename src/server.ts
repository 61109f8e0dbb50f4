/** Starts the service: reads the configuration, builds the app, listens. Nothing else. */
import { buildApp } from "./app.js";
import { ConfigError, loadConfig } from "./config.js";

async function main(): Promise<void> {
  const config = loadConfig();
  const app = await buildApp({ config });
  if (config.generatedKey) {
    // Printed once, outside the structured log, which never carries keys.
    process.stdout.write(
      `\nNo API_KEYS configured: generated a key for this run (development only):\n\n  X-API-Key: ${config.apiKeys[0]}\n\n`,
    );
  }
  await app.listen({ host: config.host, port: config.port });
}

main().catch((error: unknown) => {
  const message =
    error instanceof ConfigError ? error.message : String((error as Error)?.stack ?? error);
  process.stderr.write(`utility-calculation-service failed to start: ${message}\n`);
  process.exit(1);
});
