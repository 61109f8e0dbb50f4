/**
 * GraphiQL at `GET /graphql` for browsers, served entirely by the service: the bundle of
 * `@graphql-yoga/render-graphiql` (GraphiQL, its editor and the editor's web workers) is
 * unpacked into files (on first use) served under `/graphql/assets/`. No CDN is involved, and
 * the page has no inline script, so it runs under a strict Content-Security-Policy.
 */
import { createReadStream } from "node:fs";
import { mkdtemp, rm } from "node:fs/promises";
import { createRequire } from "node:module";
import { tmpdir } from "node:os";
import path from "node:path";
import { Worker } from "node:worker_threads";
import type { FastifyInstance, FastifyRequest } from "fastify";
import type { QueryValues } from "../core/query.js";

export const GRAPHIQL_ASSETS_PATH = "/graphql/assets";

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
  return !(request.query as QueryValues).has("query");
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
 * the browser's storage. A refusal that is not GraphQL's (401 without a key) is shown as
 * a GraphQL error saying where the key goes.
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
  const keyHint = 'Put your API key in the Headers tab: {"X-API-Key": "…"}, then press Run again.';
  return `"use strict";
const workers = ${JSON.stringify(workers)};
self.MonacoEnvironment = {
  globalAPI: false,
  getWorkerUrl: (_moduleId, label) => workers[label],
};
const nativeFetch = globalThis.fetch.bind(globalThis);
const keyHint = ${JSON.stringify(keyHint)};
globalThis.fetch = async (input, init) => {
  const body = typeof init?.body === "string" ? init.body : "";
  const key = new Headers(init?.headers).get("x-api-key")?.trim();
  // GraphiQL fetches the schema as it opens, before anyone can have typed a key: sent, that
  // request is a certain 401 (an error in the console, a confusing one in the result pane).
  if (!key && body.includes('"operationName":"IntrospectionQuery"')) {
    return Response.json({ errors: [{ message: ${JSON.stringify(noKey)} }] });
  }
  const response = await nativeFetch(input, init);
  // A refusal before GraphQL (no key, a wrong one, overload) is {"detail": …}: neither data
  // nor errors, which GraphiQL's client shows as "Unexpected empty "data" and "errors"".
  // Shown as the GraphQL error it stands for, with the key hint for a 401.
  if (response.ok || !response.headers.get("content-type")?.includes("application/json")) {
    return response;
  }
  const refusal = await response.clone().json().catch(() => undefined);
  if (typeof refusal?.detail !== "string" || "errors" in refusal || "data" in refusal) return response;
  const unauthenticated = response.status === 401;
  const message = unauthenticated ? refusal.detail.replace(/\\.?$/, ". ") + keyHint : refusal.detail;
  const code = unauthenticated ? "UNAUTHENTICATED" : "HTTP_" + response.status;
  return Response.json(
    { errors: [{ message, extensions: { code, http: { status: response.status } } }] },
    { status: response.status },
  );
};
const settings = ${JSON.stringify(settings)};
// Yoga's GraphiQL copies each edit into the address (?query=…). That URL is an API call,
// which needs a key: a reload would get a 401 instead of the page. Keep the address as is.
YogaGraphiQL.renderYogaGraphiQL(document.querySelector("#root"), { ...settings, onEditQuery() {} });
`;
}

/** The bundle's parts and the files they are served as. */
const BUNDLE_FILES: Record<string, { part: string; type: string; dataUrl?: true }> = {
  "graphiql.js": { part: "js", type: JS },
  "graphiql.css": { part: "css", type: "text/css; charset=utf-8" },
  "editor.worker.js": { part: "editorWorkerService", type: JS },
  "json.worker.js": { part: "jsonWorker", type: JS },
  "graphql.worker.js": { part: "graphqlWorker", type: JS },
  "favicon.ico": { part: "favicon", type: "image/x-icon", dataUrl: true },
};

const require = createRequire(import.meta.url);

/**
 * Writes the bundle's parts as files into `dir`, from a worker thread: the 9 MB bundle is
 * held as strings once loaded, and in a worker that memory goes when the worker ends,
 * instead of staying in every service process for good.
 */
async function extractBundle(dir: string): Promise<void> {
  const bundlePath = require.resolve("@graphql-yoga/render-graphiql/graphiql");
  const code = `
const { workerData } = require("node:worker_threads");
const fs = require("node:fs");
const path = require("node:path");
const bundle = require(workerData.bundlePath);
for (const [name, file] of Object.entries(workerData.files)) {
  const text = bundle[file.part];
  const body = file.dataUrl ? Buffer.from(text.slice(text.indexOf(",") + 1), "base64") : text;
  fs.writeFileSync(path.join(workerData.dir, name), body);
}`;
  await new Promise<void>((resolve, reject) => {
    const worker = new Worker(code, {
      eval: true,
      workerData: { bundlePath, dir, files: BUNDLE_FILES },
    });
    worker.once("error", reject);
    worker.once("exit", (exitCode) =>
      exitCode === 0 ? resolve() : reject(new Error(`GraphiQL extraction exited ${exitCode}`)),
    );
  });
}

/**
 * Registers the asset routes and returns the page, to be answered by the `/graphql` GET
 * handler. The bundle is unpacked to files on first use (an asset request), so a process
 * that only answers API calls never loads it; files are streamed from disk and removed
 * when the app closes.
 *
 * @example
 * const graphiqlPage = registerGraphiql(app, { title: "…", endpoint: "/graphql", defaultQuery: "{ __typename }" });
 */
export function registerGraphiql(
  app: FastifyInstance,
  options: GraphiqlOptions,
): { html: string; csp: string } {
  // A private directory (mkdtemp: mode 0700) per process: files served to browsers must
  // not come from a shared path another local user could have prepared.
  let unpacked: Promise<string> | undefined;
  const ensureUnpacked = () => {
    unpacked ??= (async () => {
      const dir = await mkdtemp(path.join(tmpdir(), "ucs-graphiql-"));
      await extractBundle(dir);
      return dir;
    })().catch((error: unknown) => {
      unpacked = undefined;
      throw error;
    });
    return unpacked;
  };
  app.addHook("onClose", async () => {
    const dir = await unpacked?.catch(() => undefined);
    if (dir) await rm(dir, { recursive: true, force: true });
  });
  const start = Buffer.from(startScript(options));
  app.get<{ Params: { file: string } }>(`${GRAPHIQL_ASSETS_PATH}/:file`, async (request, reply) => {
    const { file } = request.params;
    reply.header("cache-control", "public, max-age=86400");
    if (file === "start.js") return reply.type(JS).send(start);
    const asset = Object.hasOwn(BUNDLE_FILES, file) ? BUNDLE_FILES[file] : undefined;
    if (!asset) return reply.callNotFound();
    const dir = await ensureUnpacked();
    return reply.type(asset.type).send(createReadStream(path.join(dir, file)));
  });
  return { html: page(options.title), csp: CSP };
}
