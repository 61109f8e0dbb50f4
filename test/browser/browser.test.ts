/**
 * The two browser pages, in a real browser: `/docs` (Swagger UI) and GraphiQL at
 * `/graphql`, against a real listening server, driven by playwright-core on Debian's
 * Chromium (no browser download).
 *
 * Each page must load from the service alone (no request to any other origin, no failed
 * request, no console error, no uncaught exception), and a newcomer's first steps must
 * work: Authorize + Try it out + Execute on `/docs`; the key in GraphiQL's Headers tab,
 * a batched query, its result. Screenshots land in `artifacts/screenshots/`.
 *
 * Needs `/usr/bin/chromium` (apt-get install chromium). Without it the suite is skipped
 * with a message, except under CI (env CI set), where it fails.
 */
import { existsSync, mkdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { fileURLToPath } from "node:url";
import type { FastifyInstance } from "fastify";
import {
  type Browser,
  type BrowserContext,
  chromium,
  type Locator,
  type Page,
  type Request,
} from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TEST_KEY, testApp } from "../helpers.js";

const CHROMIUM = "/usr/bin/chromium";
const CHROMIUM_MISSING = !existsSync(CHROMIUM);
const IN_CI = Boolean(process.env.CI);
if (CHROMIUM_MISSING && !IN_CI) {
  console.warn(
    `[browser] SKIPPED test/browser/browser.test.ts: ${CHROMIUM} is not installed ` +
      "(apt-get install chromium); under CI (env CI set) this is a failure",
  );
}

const SCREENSHOTS = fileURLToPath(new URL("../../artifacts/screenshots/", import.meta.url));

/** Per-step bound for the browser (clicks, waits, navigations). */
const STEP_MS = 15_000;
const TEST_MS = 45_000;

const BATCH =
  '{ math { sum(numbers: ["0.1","0.2"]) { decimal } } ' +
  "a: misc { statusCode(code: 404) { reason } } " +
  "b: misc { statusCode(code: 418) { reason } } }";

/** What went wrong in a page, as seen by the browser. */
interface Trouble {
  consoleErrors: string[];
  pageErrors: string[];
  failedRequests: string[];
  /** Requests to anything but the service's own origin (data: and blob: URLs aside). */
  offOrigin: string[];
  /** Responses with status ≥ 400. */
  errorResponses: string[];
}

/** Records the trouble of every page in `context`, and every request it makes. */
function watch(context: BrowserContext, page: Page, origin: string): Trouble {
  const trouble: Trouble = {
    consoleErrors: [],
    pageErrors: [],
    failedRequests: [],
    offOrigin: [],
    errorResponses: [],
  };
  page.on("console", (message) => {
    // Swagger UI reports a schema it cannot render ("Could not find component") as a warning.
    const missingComponent =
      message.type() === "warning" && message.text().includes("Could not find component");
    if (message.type() === "error" || missingComponent) {
      const where = message.location().url;
      trouble.consoleErrors.push(where ? `${message.text()} (${where})` : message.text());
    }
  });
  page.on("pageerror", (error) => trouble.pageErrors.push(String(error.stack ?? error)));
  context.on("request", (request) => {
    const url = request.url();
    if (url.startsWith("data:") || url.startsWith("blob:")) return;
    if (new URL(url).origin !== origin) trouble.offOrigin.push(`${request.method()} ${url}`);
  });
  context.on("requestfailed", (request) =>
    trouble.failedRequests.push(
      `${request.method()} ${request.url()}: ${request.failure()?.errorText ?? "failed"}`,
    ),
  );
  context.on("response", (response) => {
    if (response.status() >= 400) {
      trouble.errorResponses.push(
        `${response.status()} ${response.request().method()} ${response.url()}`,
      );
    }
  });
  return trouble;
}

/**
 * The text a Monaco editor shows, whitespace collapsed: Monaco renders only the lines in
 * view, one element per (wrapped) line, with non-breaking spaces.
 */
async function editorText(editor: Locator): Promise<string> {
  const text = (await editor.locator(".view-lines").textContent()) ?? "";
  return text.replace(/\s+/g, " ").trim();
}

/**
 * Replaces the whole text of a Monaco editor, the way a user would: click, select all,
 * type. Monaco auto-closes brackets and quotes while typing, leaving the closers it added
 * after the cursor; they are selected to the end and deleted.
 */
async function replaceEditorText(page: Page, editor: Locator, text: string): Promise<void> {
  await editor.locator(".monaco-editor").click();
  await page.keyboard.press("ControlOrMeta+A");
  await page.keyboard.insertText(text);
  await page.keyboard.press("ControlOrMeta+Shift+End");
  await page.keyboard.press("Delete");
  await expect.poll(() => editorText(editor), { timeout: STEP_MS }).toBe(text);
}

const isIntrospection = (request: Request) =>
  (request.postData() ?? "").includes("IntrospectionQuery");

/** The next POST /graphql that is not GraphiQL's own schema introspection. */
function nextGraphqlPost(page: Page, origin: string) {
  return page.waitForRequest(
    (request) =>
      request.method() === "POST" &&
      request.url() === `${origin}/graphql` &&
      !isIntrospection(request),
    { timeout: STEP_MS },
  );
}

describe.skipIf(CHROMIUM_MISSING && !IN_CI)("browser pages", () => {
  let app: FastifyInstance | undefined;
  let browser: Browser | undefined;
  let origin = "";

  beforeAll(async () => {
    if (CHROMIUM_MISSING) {
      throw new Error(
        `${CHROMIUM} is not installed and CI is set: .ci/run must install it (apt-get install chromium)`,
      );
    }
    mkdirSync(SCREENSHOTS, { recursive: true });
    app = await testApp();
    await app.listen({ host: "127.0.0.1", port: 0 });
    origin = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        "--headless=new",
        "--no-sandbox",
        "--disable-gpu",
        "--disable-quic",
        "--no-first-run",
        "--disable-background-networking",
        "--disable-component-update",
        "--disable-sync",
      ],
      timeout: 20_000,
    });
  }, 30_000);

  afterAll(async () => {
    await browser?.close();
    await app?.close();
  }, 20_000);

  /** A fresh context (no storage shared between tests) and its page, bounded. */
  async function open(): Promise<{ context: BrowserContext; page: Page; trouble: Trouble }> {
    if (!browser) throw new Error("no browser");
    const context = await browser.newContext({ viewport: { width: 1280, height: 1000 } });
    context.setDefaultTimeout(STEP_MS);
    context.setDefaultNavigationTimeout(STEP_MS);
    const page = await context.newPage();
    return { context, page, trouble: watch(context, page, origin) };
  }

  it(
    "/docs: Swagger UI loads clean; Authorize, Try it out, Execute math/sum → 0.3",
    async () => {
      const { context, page, trouble } = await open();
      try {
        const navigation = await page.goto(`${origin}/docs`, { waitUntil: "load" });
        expect(navigation?.status()).toBe(200);
        // The spec is loaded and rendered once the operations are there.
        const sum = page
          .locator(".opblock")
          .filter({ has: page.locator('.opblock-summary-path[data-path="/v1/math/sum"]') });
        await expect.poll(() => sum.count(), { timeout: STEP_MS }).toBe(1);
        await page.waitForLoadState("networkidle", { timeout: STEP_MS });
        expect(trouble).toEqual({
          consoleErrors: [],
          pageErrors: [],
          failedRequests: [],
          offOrigin: [],
          errorResponses: [],
        });

        // Authorize: the X-API-Key field, Authorize, Close.
        await page.locator(".auth-wrapper button.authorize").click();
        const modal = page.locator(".modal-ux");
        const apiKey = modal.locator(".auth-container").filter({ hasText: "X-API-Key" });
        await apiKey.locator("input").fill(TEST_KEY);
        // The modal also holds the admin API's bearer scheme, with its own button.
        await apiKey.getByRole("button", { name: "Apply credentials" }).click();
        // Authorized: the value is masked and the button now offers to log out.
        await apiKey.getByRole("button", { name: "Remove authorization" }).waitFor();
        expect(await apiKey.textContent()).toContain("Authorized");
        await apiKey.getByRole("button", { name: "Close" }).click();
        await modal.waitFor({ state: "detached" });
        expect(await page.locator(".auth-wrapper button.authorize").getAttribute("class")).toMatch(
          /\blocked\b/,
        );

        // Expand GET /v1/math/sum; "Try it out" (already on when tryItOutEnabled is set).
        await sum.locator(".opblock-summary-control").click();
        const tryItOut = sum.locator("button.try-out__btn", { hasText: "Try it out" });
        if ((await tryItOut.count()) > 0) await tryItOut.click();
        const execute = sum.locator("button.execute");
        await execute.waitFor();

        // numbers: start from the other example, so the values sent are the ones typed.
        const row = sum.locator('tr[data-param-name="numbers"]');
        const examples = row.locator("select.examples-select-element");
        if ((await examples.count()) > 0) await examples.selectOption({ index: 1 });
        const items = row.locator(".json-schema-array .json-schema-form-item");
        const textarea = row.locator("textarea");
        if ((await row.locator(".json-schema-array").count()) > 0) {
          // One input per item: exactly two items, then type each.
          while ((await items.count()) > 2) await items.last().locator("button").click();
          while ((await items.count()) < 2) {
            await row.locator("button.json-schema-form-item-add").click();
          }
          await items.nth(0).locator("input").fill("0.1");
          await items.nth(1).locator("input").fill("0.2");
        } else {
          await textarea.fill("0.1\n0.2");
        }

        const requested = page.waitForRequest((r) => r.url().startsWith(`${origin}/v1/math/sum`));
        await execute.click();
        const request = await requested;
        expect(new URL(request.url()).searchParams.getAll("numbers")).toEqual(["0.1", "0.2"]);
        expect(request.headers()["x-api-key"]).toBe(TEST_KEY);

        const live = sum.locator(".live-responses-table");
        await live.waitFor();
        expect(
          (await live.locator("tbody tr.response .response-col_status").textContent())?.trim(),
        ).toBe("200");
        const body = live.locator(".response-col_description .highlight-code pre").first();
        expect(await body.textContent()).toContain('"decimal": "0.3"');

        // The operation from its summary line down to the response body, in one picture.
        const pageY = (locator: Locator, edge: "top" | "bottom") =>
          locator.evaluate(
            (element, side) => element.getBoundingClientRect()[side] + scrollY,
            edge,
          );
        const top = await pageY(sum.locator(".opblock-summary"), "top");
        const bottom = await pageY(body, "bottom");
        await page.screenshot({
          path: `${SCREENSHOTS}docs-sum.png`,
          fullPage: true,
          clip: { x: 0, y: Math.max(0, top - 16), width: 1280, height: bottom - top + 32 },
        });
        expect(trouble.consoleErrors).toEqual([]);
        expect(trouble.pageErrors).toEqual([]);
        expect(trouble.failedRequests).toEqual([]);
        expect(trouble.offOrigin).toEqual([]);
        expect(trouble.errorResponses).toEqual([]);
      } finally {
        await context.close();
      }
    },
    TEST_MS,
  );

  /** Opens GraphiQL as a browser does (Accept: text/html), without a key. */
  async function openGraphiql() {
    const opened = await open();
    const navigation = await opened.page.goto(`${origin}/graphql`, { waitUntil: "load" });
    expect(navigation?.status()).toBe(200);
    expect(await navigation?.request().headerValue("accept")).toMatch(/text\/html/);
    const query = opened.page.locator("section.graphiql-query-editor .graphiql-editor");
    await query.locator(".monaco-editor .view-lines").waitFor();
    // The Headers tab, opened by the page itself (defaultEditorToolsVisibility).
    const headersTab = opened.page.locator(".graphiql-editor-tools button", {
      hasText: "Headers",
    });
    if (!(await headersTab.getAttribute("class"))?.includes("active")) await headersTab.click();
    const headers = opened.page.locator(
      "section.graphiql-editor-tool .graphiql-editor:not(.hidden)",
    );
    await headers.locator(".monaco-editor .view-lines").waitFor();
    const result = opened.page.locator("section.result-window");
    const run = opened.page.locator("button.graphiql-execute-button");
    await opened.page.waitForLoadState("networkidle", { timeout: STEP_MS });
    return { ...opened, query, headers, result, run };
  }

  it(
    "GraphiQL: loads clean without a key; with the key in Headers a batched query answers",
    async () => {
      const { context, page, trouble, query, headers, result, run } = await openGraphiql();
      try {
        // Soft: a load problem is reported, and the rest of the flow still runs.
        expect.soft(trouble.consoleErrors, "console errors while loading").toEqual([]);
        expect.soft(trouble.errorResponses, "error responses while loading").toEqual([]);
        expect(trouble.pageErrors).toEqual([]);
        expect(trouble.failedRequests).toEqual([]);
        expect(trouble.offOrigin).toEqual([]);

        await replaceEditorText(page, headers, `{"X-API-Key": "${TEST_KEY}"}`);
        // With the key, the schema loads too (GraphiQL asked for it, keyless, on opening).
        const introspected = page.waitForRequest(
          (request) => request.method() === "POST" && isIntrospection(request),
          { timeout: STEP_MS },
        );
        await page.getByRole("button", { name: /^Re-fetch GraphQL schema/ }).click();
        const introspection = await introspected;
        expect(introspection.headers()["x-api-key"]).toBe(TEST_KEY);
        expect((await introspection.response())?.status()).toBe(200);

        await replaceEditorText(page, query, BATCH);
        // Prettify: the whole query on screen, one field a line.
        await page.getByRole("button", { name: /^Prettify query/ }).click();
        await expect
          .poll(() => query.locator(".view-line").count(), { timeout: STEP_MS })
          .toBeGreaterThan(10);
        const sent = nextGraphqlPost(page, origin);
        await run.click();
        const request = await sent;
        expect(request.headers()["x-api-key"]).toBe(TEST_KEY);
        const response = await request.response();
        expect(response?.status()).toBe(200);

        const text = () => editorText(result);
        await expect.poll(text, { timeout: STEP_MS }).toContain('"decimal": "0.3"');
        const shown = await text();
        expect(shown).toContain('"reason": "Not Found"');
        expect(shown).toContain('"b": {');
        expect(shown).not.toContain('"errors"');
        await page.screenshot({ path: `${SCREENSHOTS}graphiql-batch.png` });

        expect(trouble.pageErrors).toEqual([]);
        expect(trouble.failedRequests).toEqual([]);
        expect(trouble.offOrigin).toEqual([]);
      } finally {
        await context.close();
      }
    },
    TEST_MS,
  );

  it(
    "GraphiQL without a key: running a query shows the 401 detail and the key hint; the page lives on",
    async () => {
      const refusal = await fetch(`${origin}/graphql`, {
        method: "POST",
        headers: { "content-type": "application/json", "x-api-key": "" },
        body: JSON.stringify({ query: "{ __typename }" }),
      });
      expect(refusal.status).toBe(401);
      const { detail } = (await refusal.json()) as { detail: string };

      const { context, page, trouble, query, result, run } = await openGraphiql();
      try {
        await replaceEditorText(page, query, "{ __typename }");
        const sent = nextGraphqlPost(page, origin);
        await run.click();
        const request = await sent;
        expect(request.headers()["x-api-key"]).toBe("");
        expect((await request.response())?.status()).toBe(401);

        const text = () => editorText(result);
        await expect.poll(text, { timeout: STEP_MS }).toContain(detail);
        expect(await text()).toContain("401");
        // Where the key goes, not the client's "Unexpected empty data and errors".
        expect(await text()).toContain("Put your API key in the Headers tab");
        expect(await text()).not.toMatch(/Unexpected empty|RESPONSE_VALIDATION_FAILED/);
        await page.screenshot({ path: `${SCREENSHOTS}graphiql-no-key.png` });

        // Not a crash: no uncaught error, and the editor still takes a run.
        expect(trouble.pageErrors).toEqual([]);
        expect(trouble.failedRequests).toEqual([]);
        expect(trouble.offOrigin).toEqual([]);
        // The only console errors are the browser's own lines for the 401 answers.
        for (const error of trouble.consoleErrors) {
          expect(error).toMatch(/^Failed to load resource: .*\b401\b/);
        }
        expect(await run.isEnabled()).toBe(true);
      } finally {
        await context.close();
      }
    },
    TEST_MS,
  );

  it(
    "GraphiQL: reloading the page after editing the query still shows GraphiQL",
    async () => {
      const { context, page, trouble, query } = await openGraphiql();
      try {
        await replaceEditorText(page, query, "{ __typename }");
        // GraphiQL saves an edit after a short debounce; reload once it is saved.
        await expect
          .poll(() => page.evaluate(() => Object.values(localStorage).join("\n")), {
            timeout: STEP_MS,
          })
          .toContain('"query":"{ __typename }"');
        const reloaded = await page.reload({ waitUntil: "load" });
        expect(
          reloaded?.status(),
          `the reload asked for ${reloaded?.url()} and got ${await reloaded?.text()}`,
        ).toBe(200);
        const again = page.locator("section.graphiql-query-editor .graphiql-editor");
        await again.locator(".monaco-editor .view-lines").waitFor();
        await expect.poll(() => editorText(again), { timeout: STEP_MS }).toBe("{ __typename }");
        expect(trouble.pageErrors).toEqual([]);
        expect(trouble.offOrigin).toEqual([]);
      } finally {
        await context.close();
      }
    },
    TEST_MS,
  );
});
