/**
 * `/docs`: Swagger UI, served from the `swagger-ui-dist` package on disk, so the
 * reference works offline and under a strict Content-Security-Policy (no inline script).
 */
import { createReadStream, statSync } from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import type { FastifyInstance } from "fastify";
import type { Surface } from "../surface.js";

const require = createRequire(import.meta.url);
const distDir = path.dirname(require.resolve("swagger-ui-dist/package.json"));

const JS = "text/javascript; charset=utf-8";

const ASSETS: Record<string, string> = {
  "swagger-ui.css": "text/css; charset=utf-8",
  "swagger-ui-bundle.js": JS,
  "favicon-32x32.png": "image/png",
};

const PAGE = `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>Utility Calculation Service — API reference</title>
  <link rel="stylesheet" href="/docs/assets/swagger-ui.css">
  <link rel="icon" type="image/png" href="/docs/assets/favicon-32x32.png">
</head>
<body>
  <div id="swagger-ui"></div>
  <script src="/docs/assets/swagger-ui-bundle.js"></script>
  <script src="/docs/assets/init.js"></script>
</body>
</html>
`;

// "Authorize" takes the X-API-Key; "Try it out" is on so a newcomer calls an operation at once.
// Swagger UI looks up an input component per `type` + `format` for list items and warns
// when there is none; decimals (OpenAPI's registered `decimal` format) are typed as text.
const INIT = `const DecimalInput = (system) => ({
  components: {
    JsonSchema_string_decimal: (props) =>
      system.React.createElement(system.getComponent("JsonSchema_string"), props),
  },
});
window.ui = SwaggerUIBundle({
  url: "/openapi.json",
  dom_id: "#swagger-ui",
  deepLinking: true,
  tryItOutEnabled: true,
  displayRequestDuration: true,
  defaultModelsExpandDepth: 0,
  plugins: [DecimalInput],
});
`;

const CSP =
  "default-src 'none'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; connect-src 'self'; font-src 'self'; base-uri 'none'; frame-ancestors 'none'";

const INIT_JS = "init.js";
const CACHED = "public, max-age=86400";

/**
 * Registers `/docs` and its assets. Swagger UI's files (~2 MB) are streamed from disk per
 * request, not held in memory by every process; a missing one stops the start.
 */
export function registerDocs(app: FastifyInstance): void {
  const files = new Map<string, { file: string; type: string }>();
  for (const [name, type] of Object.entries(ASSETS)) {
    const file = path.join(distDir, name);
    statSync(file);
    files.set(name, { file, type });
  }
  const init = Buffer.from(INIT);

  app.get("/docs", (_request, reply) =>
    reply.header("content-security-policy", CSP).type("text/html; charset=utf-8").send(PAGE),
  );
  app.get<{ Params: { file: string } }>("/docs/assets/:file", (request, reply) => {
    const name = request.params.file;
    if (name === INIT_JS) return reply.header("cache-control", CACHED).type(JS).send(init);
    const asset = files.get(name);
    if (!asset) return reply.callNotFound();
    return reply
      .header("cache-control", CACHED)
      .type(asset.type)
      .send(createReadStream(asset.file));
  });
}

/** `/docs`: Swagger UI over the OpenAPI document. */
export const docsSurface: Surface = { name: "docs", register: registerDocs };
