/**
 * Builds the application: every route, hook and handler, but no listening socket.
 * Tests call `buildApp()` and `app.inject()`; `server.ts` listens.
 */
import Fastify, { type FastifyInstance } from "fastify";
import type { Config } from "./config.js";
import { registerDocs } from "./docs/swagger-ui.js";
import { registerGraphql } from "./graphql/register.js";
import { requireApiKey } from "./http/auth.js";
import { handleError, sendError } from "./http/errors.js";
import type { AnyOperation } from "./kit/define.js";
import { buildOpenApiDocument } from "./openapi/document.js";
import { loadOperations } from "./registry/loader.js";
import { registerRestRoutes } from "./rest/routes.js";
import { VERSION } from "./version.js";

export interface AppOptions {
  config: Config;
  /** The operations to serve; by default, every module under `operations/`. */
  operations?: readonly AnyOperation[];
  /** Pino logger options, or false for none (tests). */
  logger?: boolean | Record<string, unknown>;
}

/** Allowed methods per known path, for 405 answers. */
function trackRoutes(app: FastifyInstance): Map<string, Set<string>> {
  const methods = new Map<string, Set<string>>();
  app.addHook("onRoute", (route) => {
    const set = methods.get(route.url) ?? new Set<string>();
    for (const method of [route.method].flat()) set.add(method);
    methods.set(route.url, set);
  });
  return methods;
}

/**
 * Builds the app for `config`.
 *
 * @example
 * const app = await buildApp({ config: loadConfig({ API_KEYS: "k" }), logger: false });
 * const res = await app.inject({ url: "/v1/math/sum?numbers=1,2", headers: { "x-api-key": "k" } });
 */
export async function buildApp(options: AppOptions): Promise<FastifyInstance> {
  const { config } = options;
  const operations = options.operations ?? (await loadOperations());
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : {
            level: config.logLevel,
            redact: {
              paths: ['req.headers["x-api-key"]', "headers['x-api-key']"],
              censor: "[redacted]",
            },
            ...(typeof options.logger === "object" ? options.logger : {}),
          },
    // A 10,000-item list fits in a GET; a larger URL is a 431.
    http: { maxHeaderSize: 128 * 1024 },
    bodyLimit: 1024 * 1024,
    routerOptions: { ignoreTrailingSlash: false, maxParamLength: 200 },
    return503OnClosing: true,
  });
  const allowed = trackRoutes(app);

  app.setErrorHandler(handleError);
  app.setNotFoundHandler((request, reply) => {
    const path = request.url.split("?", 1)[0] ?? "";
    const methods = allowed.get(path);
    if (methods) {
      return sendError(reply, 405, "Method Not Allowed", { allow: [...methods].sort().join(", ") });
    }
    return sendError(reply, 404, "Not Found");
  });

  const openApiJson = JSON.stringify(buildOpenApiDocument(operations, { version: VERSION }));

  app.get("/health", () => ({ status: "ok" }));
  app.get("/openapi.json", (_request, reply) =>
    reply.type("application/json; charset=utf-8").send(openApiJson),
  );
  registerDocs(app);
  const authenticate = requireApiKey(config.apiKeys);
  registerRestRoutes(app, operations, authenticate);
  registerGraphql(app, operations, authenticate);
  return app;
}
