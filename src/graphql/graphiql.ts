/**
 * GraphiQL at `GET /graphql` for browsers, served entirely by the service: the bundle of
 * `@graphql-yoga/render-graphiql` (GraphiQL, its editor and the editor's web workers) is
 * split into files under `/graphql/assets/`, read once at start. No CDN is involved, and
 * the page has no inline script, so it runs under a strict Content-Security-Policy.
 */
import type { FastifyInstance, FastifyRequest } from "fastify";

export const GRAPHIQL_ASSETS_PATH = "/graphql/assets";

interface Asset {
  body: Buffer;
  type: string;
}

const JS = "text/javascript; charset=utf-8";

const CSP = [
  "default-src 'none'",
  "script-src 'self'",
  // The editor's language services run in web workers, started from these same files.
  "worker-src 'self' blob:",
  // The editor sets styles at run time.
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "font-src 'self' data:",
  "connect-src 'self'",
  "base-uri 'none'",
  "frame-ancestors 'none'",
].join("; ");

/**
 * Whether a request is a browser opening the GraphiQL page: a GET that accepts HTML and
 * carries no `query`. Only this request is served without an API key.
 *
 * @example
 * wantsGraphiql(request); // true for `GET /graphql` with `Accept: text/html,…`
 */
export function wantsGraphiql(request: FastifyRequest): boolean {
  if (request.method !== "GET") return false;
  if (!request.headers.accept?.includes("text/html")) return false;
  const query = request.query as Record<string, unknown> | undefined;
  return query === undefined || query === null || !Object.hasOwn(query, "query");
}

function page(title: string): string {
  return `<!doctype html>
<html lang="en">
<head>
  <meta charset="utf-8">
  <meta name="viewport" content="width=device-width, initial-scale=1">
  <title>${title}</title>
  <link rel="icon" href="${GRAPHIQL_ASSETS_PATH}/favicon.ico">
  <link rel="stylesheet" href="${GRAPHIQL_ASSETS_PATH}/graphiql.css">
</head>
<body id="body" class="no-focus-outline">
  <noscript>GraphiQL needs JavaScript.</noscript>
  <div id="root"></div>
  <script src="${GRAPHIQL_ASSETS_PATH}/graphiql.js"></script>
  <script src="${GRAPHIQL_ASSETS_PATH}/start.js"></script>
</body>
</html>
`;
}

export interface GraphiqlOptions {
  /** The page title. */
  title: string;
  /** The GraphQL endpoint the page calls. */
  endpoint: string;
  /** The query shown in a new tab. */
  defaultQuery: string;
}

/**
 * The script that starts GraphiQL: tells the editor where its workers are, then renders
 * with the X-API-Key header prefilled (empty) and the headers editor open, since every
 * request but this page needs a key. Headers are not persisted: a key never lands in
 * the browser's storage.
 */
function startScript(options: GraphiqlOptions): string {
  const workers = {
    editorWorkerService: `${GRAPHIQL_ASSETS_PATH}/editor.worker.js`,
    json: `${GRAPHIQL_ASSETS_PATH}/json.worker.js`,
    graphql: `${GRAPHIQL_ASSETS_PATH}/graphql.worker.js`,
  };
  const settings = {
    title: options.title,
    endpoint: options.endpoint,
    defaultQuery: options.defaultQuery,
    headers: JSON.stringify({ "X-API-Key": "" }, null, 2),
    isHeadersEditorEnabled: true,
    defaultEditorToolsVisibility: "headers",
    shouldPersistHeaders: false,
  };
  const noKey =
    'No schema yet: put your key in the Headers tab ({"X-API-Key": "…"}), then press "Re-fetch GraphQL schema" (Shift-Ctrl-R).';
  return `"use strict";
const workers = ${JSON.stringify(workers)};
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (_moduleId, label) => workers[label],
};
// GraphiQL fetches the schema as it opens, before anyone can have typed a key: sent, that
// request is a certain 401 (an error in the console, a confusing one in the result pane).
const nativeFetch = globalThis.fetch.bind(globalThis);
globalThis.fetch = (input, init) => {
  const body = typeof init?.body === "string" ? init.body : "";
  const key = new Headers(init?.headers).get("x-api-key")?.trim();
  if (!key && body.includes('"operationName":"IntrospectionQuery"')) {
    return Promise.resolve(Response.json({ errors: [{ message: ${JSON.stringify(noKey)} }] }));
  }
  return nativeFetch(input, init);
};
const settings = ${JSON.stringify(settings)};
// Yoga's GraphiQL copies each edit into the address (?query=…). That URL is an API call,
// which needs a key: a reload would get a 401 instead of the page. Keep the address as is.
YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), { ...settings, onEditQuery() {} });
`;
}

function dataUrlBytes(url: string): Buffer {
  const comma = url.indexOf(",");
  return Buffer.from(url.slice(comma + 1), "base64");
}

/**
 * Loads the GraphiQL bundle (once: the module is cached) and registers the asset routes.
 * Returns the page, to be answered by the `/graphql` GET handler.
 *
 * @example
 * const graphiqlPage = await registerGraphiql(app, { title: "…", endpoint: "/graphql", defaultQuery: "{ __typename }" });
 */
export async function registerGraphiql(
  app: FastifyInstance,
  options: GraphiqlOptions,
): Promise<{ html: string; csp: string }> {
  const bundle = await import("@graphql-yoga/render-graphiql/graphiql");
  const files = new Map<string, Asset>([
    ["graphiql.js", { body: Buffer.from(bundle.js), type: JS }],
    ["graphiql.css", { body: Buffer.from(bundle.css), type: "text/css; charset=utf-8" }],
    ["editor.worker.js", { body: Buffer.from(bundle.editorWorkerService), type: JS }],
    ["json.worker.js", { body: Buffer.from(bundle.jsonWorker), type: JS }],
    ["graphql.worker.js", { body: Buffer.from(bundle.graphqlWorker), type: JS }],
    ["favicon.ico", { body: dataUrlBytes(bundle.favicon), type: "image/x-icon" }],
    ["start.js", { body: Buffer.from(startScript(options)), type: JS }],
  ]);
  app.get<{ Params: { file: string } }>(`${GRAPHIQL_ASSETS_PATH}/:file`, (request, reply) => {
    const file = files.get(request.params.file);
    if (!file) return reply.callNotFound();
    return reply.header("cache-control", "public, max-age=86400").type(file.type).send(file.body);
  });
  return { html: page(options.title), csp: CSP };
}
