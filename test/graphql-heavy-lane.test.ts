/**
 * A long GraphQL document not yet prepared costs its parse, validation and compilation, so
 * its request takes the heavy lane (src/http/heavy-lane.ts): a cheap request that arrives in
 * the same turn is answered first. A prepared document, or a short one, stays on the fast
 * path. Order is what is checked, not time.
 */
import type { FastifyInstance, InjectOptions } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { HEAVY_DOCUMENT_CHARS } from "../src/graphql/adapters.js";
import { AUTH, testApp } from "./helpers.js";

let app: FastifyInstance;
beforeAll(async () => {
  app = await testApp();
});
afterAll(() => app.close());

let documents = 0;
/** A document no request has sent yet (its aliases are unique), longer than the bound. */
const freshDocument = () => {
  const n = ++documents;
  const fields = Array.from(
    { length: 25 },
    (_, j) => `d${n}_${j}: math { sum(numbers: ["1"]) { decimal } }`,
  );
  const query = `{ ${fields.join(" ")} }`;
  expect(query.length).toBeGreaterThan(HEAVY_DOCUMENT_CHARS);
  return query;
};
/** A short document no request has sent yet. */
const shortDocument = () => `{ s${++documents}: math { sum(numbers: ["1", "2"]) { decimal } } }`;

type Request = InjectOptions;

/** The order in which requests sent in one turn of the event loop are answered. */
async function order(requests: Record<string, Request>): Promise<string[]> {
  const ended: string[] = [];
  await Promise.all(
    Object.entries(requests).map(([name, request]) =>
      app.inject(request).then((res) => {
        expect(res.statusCode, res.body).toBe(200);
        ended.push(name);
      }),
    ),
  );
  return ended;
}

const post = (query: string): Request => ({
  method: "POST",
  url: "/graphql",
  headers: AUTH,
  payload: { query },
});
const get = (query: string): Request => ({
  method: "GET",
  url: `/graphql?query=${encodeURIComponent(query)}`,
  headers: AUTH,
});
const typed = (query: string): Request => ({
  method: "POST",
  url: "/graphql",
  headers: { ...AUTH, "content-type": "application/graphql" },
  payload: query,
});

/** A short document sent twice already: prepared, and kept. */
async function preparedDocument(request: (query: string) => Request): Promise<string> {
  const query = shortDocument();
  for (let i = 0; i < 2; i++) expect((await app.inject(request(query))).statusCode).toBe(200);
  return query;
}

// Each new document is sent beside a prepared one of the same form (the same parsing, the
// same adapter), sent after it in the same turn: only the lane can put it second.
describe.each([
  ["a JSON POST", post],
  ["a GET", get],
  ["an application/graphql POST", typed],
])("%s", (_name, request) => {
  it("of a document not yet prepared waits for its turn in the heavy lane", async () => {
    const cheap = request(await preparedDocument(request));
    const query = freshDocument();
    // First sight (prepared for this request only), then second (compiled and kept).
    expect(await order({ fresh: request(query), cheap })).toEqual(["cheap", "fresh"]);
    expect(await order({ fresh: request(query), cheap })).toEqual(["cheap", "fresh"]);
  });

  it("of a prepared document runs at once", async () => {
    const first = request(await preparedDocument(request));
    const second = request(await preparedDocument(request));
    expect(await order({ first, second })).toEqual(["first", "second"]);
    expect(await order({ second, first })).toEqual(["second", "first"]);
  });
});

it("a short document not yet prepared runs at once", async () => {
  const cheap = post(await preparedDocument(post));
  expect(await order({ fresh: post(shortDocument()), cheap })).toEqual(["fresh", "cheap"]);
});

it("a long document that fails validation is never prepared, and always waits", async () => {
  const cheap = post(await preparedDocument(post));
  const invalid = post(
    `{ math { sum(numbers: 1) { nothing } } }${" ".repeat(HEAVY_DOCUMENT_CHARS)}`,
  );
  const short = post("{ math { sum(numbers: 1) { nothing } } }");
  for (let i = 0; i < 3; i++) {
    const ended: string[] = [];
    await Promise.all([
      app.inject(invalid).then(() => ended.push("invalid")),
      app.inject(short).then(() => ended.push("short")),
      app.inject(cheap).then(() => ended.push("cheap")),
    ]);
    expect(ended).toEqual(["short", "cheap", "invalid"]);
  }
});
