/**
 * GraphQL's server shortcut (src/graphql/server-shortcut.ts) must answer as fastify's
 * route does. Every request below goes over a real socket to two apps, one with the server
 * shortcuts and one without, and both answers must be the same: status, headers (but the
 * date and a generated request id) and body, byte for byte. Each case also says whether
 * the shortcut takes it, so the comparison is known to compare the two ways; the metrics
 * both apps count must end up the same too.
 */
import { connect, type Socket } from "node:net";
import type { FastifyInstance } from "fastify";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fieldFor } from "./graphql-helpers.js";
import { AUTH, allOperations, TEST_KEY } from "./helpers.js";
import {
  comparable,
  exchange,
  expectSameCounts,
  expectSameRequestLine,
  listeningApp,
  portOf,
  twoApps,
} from "./shortcut-helpers.js";

const JSON_POST = { ...AUTH, "content-type": "application/json" };

const post = (
  port: number,
  body: string,
  headers: Record<string, string> = JSON_POST,
  path = "/graphql",
) => exchange(port, path, { method: "POST", headers, body });

let apps: Awaited<ReturnType<typeof twoApps>>;
const start = listeningApp;

/** Sends one request to both apps; answers both, and whether the shortcut took it. */
const both = (body: string, headers?: Record<string, string>, path?: string) =>
  apps.both((port) => post(port, body, headers, path));

beforeAll(async () => {
  apps = await twoApps();
});

afterAll(() => apps?.close());

const queryBody = (query: string, extra: Record<string, unknown> = {}) =>
  JSON.stringify({ query, ...extra });

describe("every example: the shortcut answers it as fastify does", async () => {
  const operations = await allOperations();
  const cases = operations.flatMap((operation) =>
    operation.examples.map((example, index) => ({
      name: `${operation.area}/${operation.name} example ${index + 1}`,
      query: `{ ${fieldFor(operation, example.input as Record<string, unknown>)} }`,
    })),
  );
  it.each(cases)("$name", async ({ query }) => {
    const { fast, slow, shortcutTook } = await both(queryBody(query));
    expect(fast.status).toBe(200);
    expect(JSON.parse(fast.body).errors).toBeUndefined();
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(shortcutTook).toBe(true);
  });

  it("every operation's first example in one request", async () => {
    const fields = operations.map((operation, i) =>
      fieldFor(operation, operation.examples[0]?.input as Record<string, unknown>, `f${i}`),
    );
    const { fast, slow, shortcutTook } = await both(queryBody(`{ ${fields.join(" ")} }`));
    expect(fast.status).toBe(200);
    expect(comparable(fast)).toEqual(comparable(slow));
    expect(shortcutTook).toBe(true);
  });
});

const SUM = '{ math { sum(numbers: ["1", "2"]) { decimal } } }';
const PADDED = `{ ${" ".repeat(9000)} __typename }`;

/** Requests the shortcut leaves to fastify, or takes; either way both apps answer alike. */
const TABLE: {
  name: string;
  body: string;
  headers?: Record<string, string>;
  path?: string;
  shortcutTakes: boolean;
  keepRequestId?: boolean;
}[] = [
  { name: "a plain sum", body: queryBody(SUM), shortcutTakes: true },
  {
    name: "variables and an operation name",
    body: queryBody("query A($n: [Decimal!]!) { math { sum(numbers: $n) { decimal } } }", {
      variables: { n: ["1.5", "2"] },
      operationName: "A",
    }),
    shortcutTakes: true,
  },
  {
    name: "the client's request id, echoed",
    body: queryBody(SUM),
    headers: { ...JSON_POST, "x-request-id": "client-id-1" },
    shortcutTakes: true,
    keepRequestId: true,
  },
  {
    name: "a charset in the media type",
    body: queryBody(SUM),
    headers: { ...JSON_POST, "content-type": "application/json; charset=utf-8" },
    shortcutTakes: true,
  },
  {
    name: "invalid input (an error beside null data)",
    body: queryBody('{ math { sum(numbers: ["x"]) { decimal } } }'),
    shortcutTakes: true,
  },
  { name: "an unknown field (validation)", body: queryBody("{ nope }"), shortcutTakes: true },
  { name: "a syntax error", body: queryBody("{ math {"), shortcutTakes: true },
  {
    name: "a 404 from the handler",
    body: queryBody('{ fun { wouldYouRather(id: "zzz-999") { id } } }'),
    shortcutTakes: true,
  },
  { name: "invalid JSON", body: "{bad json", shortcutTakes: false },
  { name: "an empty body", body: "", shortcutTakes: false },
  { name: "an array (a batch)", body: `[${queryBody(SUM)}]`, shortcutTakes: false },
  { name: "a query that is not a string", body: '{"query":1}', shortcutTakes: false },
  { name: "an unknown parameter", body: queryBody(SUM, { x: 1 }), shortcutTakes: false },
  {
    name: "a __proto__ key",
    body: `{"__proto__":{},"query":${JSON.stringify(SUM)}}`,
    shortcutTakes: false,
  },
  {
    name: "JSON nested too deep",
    body: `{"query":"{ __typename }","variables":${'{"a":'.repeat(70)}1${"}".repeat(70)}}`,
    shortcutTakes: false,
  },
  { name: "a body of more than 8 KB", body: queryBody(PADDED), shortcutTakes: false },
  {
    name: "application/graphql",
    body: SUM,
    headers: { ...AUTH, "content-type": "application/graphql" },
    shortcutTakes: false,
  },
  {
    name: "Accept: application/graphql-response+json",
    body: queryBody(SUM),
    headers: { ...JSON_POST, accept: "application/graphql-response+json" },
    shortcutTakes: false,
  },
  {
    name: "no key",
    body: queryBody(SUM),
    headers: { "content-type": "application/json" },
    shortcutTakes: false,
  },
  {
    name: "a wrong key",
    body: queryBody(SUM),
    headers: { ...JSON_POST, "x-api-key": "nope" },
    shortcutTakes: false,
  },
  {
    name: "a chunked body",
    body: queryBody(SUM),
    headers: { ...JSON_POST, "transfer-encoding": "chunked" },
    shortcutTakes: false,
  },
  { name: "a query string", body: queryBody(SUM), path: "/graphql?x=1", shortcutTakes: false },
];

describe("which requests the shortcut takes; fastify answers the rest alike", () => {
  it.each(TABLE)("$name", async ({ body, headers, path, shortcutTakes, keepRequestId }) => {
    const { fast, slow, shortcutTook } = await both(body, headers, path);
    expect(comparable(fast, keepRequestId)).toEqual(comparable(slow, keepRequestId));
    expect(shortcutTook).toBe(shortcutTakes);
  });
});

describe("counted and logged alike", () => {
  it("both apps count the same calculations and HTTP answers", async () => {
    await expectSameCounts("graphql", "/graphql", [apps.withShortcut, apps.fastifyOnly], AUTH);
  });

  it("the shortcut's request line has fastify's fields and values", async () => {
    const line = await expectSameRequestLine("/graphql", (port) => post(port, queryBody(SUM)));
    expect(line).toMatchObject({ method: "POST", path: "/graphql", status: 200 });
  });
});

/** A raw connection to `app`, with everything it receives. */
async function rawConnection(app: FastifyInstance) {
  const socket = connect(portOf(app), "127.0.0.1");
  socket.on("error", () => {});
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  const state = { socket, received: "" };
  socket.setEncoding("utf8");
  socket.on("data", (chunk: string) => {
    state.received += chunk;
  });
  return state;
}

const rawPost = (body: string) =>
  `POST /graphql HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\nContent-Type: application/json\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`;

const statuses = (received: string) =>
  [...received.matchAll(/HTTP\/1\.1 (\d{3}) /g)].map((match) => match[1]);

describe("on one connection", () => {
  it("pipelined requests are answered in order, one left to fastify among them", async () => {
    // Parameters yoga refuses (400): fastify reads the body again and answers, and the
    // connection goes on. (Invalid JSON would close it: fastify's parser answers so.)
    const sum = (n: string) => queryBody(`{ math { sum(numbers: ["${n}"]) { decimal } } }`);
    // The first is read by the shortcut and handed to fastify, with the others behind it.
    const requests =
      rawPost('{"query":1}') +
      rawPost(sum("1")) +
      rawPost('{"query":1}') +
      rawPost(sum("2")) +
      `GET /v1/math/sum?numbers=3 HTTP/1.1\r\nHost: x\r\nX-API-Key: ${TEST_KEY}\r\n\r\n` +
      rawPost(sum("4"));
    const answers = async (app: FastifyInstance) => {
      const connection = await rawConnection(app);
      connection.socket.write(requests);
      await expect.poll(() => statuses(connection.received).length, { timeout: 5000 }).toBe(6);
      connection.socket.destroy();
      return {
        statuses: statuses(connection.received),
        decimals: connection.received.match(/"decimal":"\d+"/g),
      };
    };
    const fast = await answers(apps.withShortcut);
    expect(fast).toEqual({
      statuses: ["400", "200", "400", "200", "200", "200"],
      decimals: ['"decimal":"1"', '"decimal":"2"', '"decimal":"3"', '"decimal":"4"'],
    });
    expect(await answers(apps.fastifyOnly)).toEqual(fast);
  });

  /** SUM's request on a new connection, sent up to 10 bytes into its body; and the rest. */
  async function halfSent(app: FastifyInstance) {
    const connection = await rawConnection(app);
    const request = rawPost(queryBody(SUM));
    const cut = request.indexOf("\r\n\r\n") + 10;
    connection.socket.write(request.slice(0, cut));
    return { connection, rest: request.slice(cut) };
  }

  it("a body that arrives in pieces is answered once it is whole", async () => {
    const { connection, rest } = await halfSent(apps.withShortcut);
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(connection.received).toBe("");
    connection.socket.write(rest);
    await expect.poll(() => connection.received, { timeout: 5000 }).toContain('"decimal":"3"');
    connection.socket.destroy();
  });

  it("a body completed once the drain has begun is answered with Connection: close", async () => {
    const { connection, rest } = await halfSent(apps.withShortcut);
    await new Promise((resolve) => setTimeout(resolve, 50));
    apps.withShortcut.lifecycle.draining = true;
    try {
      connection.socket.write(rest);
      await expect.poll(() => connection.received, { timeout: 5000 }).toContain('"decimal":"3"');
      expect(connection.received).toMatch(/\r\nconnection: close\r\n/i);
    } finally {
      apps.withShortcut.lifecycle.draining = false;
      connection.socket.destroy();
    }
  });

  it("a client gone mid-body costs nothing and holds nothing", async () => {
    const request = rawPost(queryBody(SUM));
    const gone: Socket = (await rawConnection(apps.withShortcut)).socket;
    gone.write(request.slice(0, request.length - 5));
    await new Promise((resolve) => setTimeout(resolve, 50));
    gone.destroy();
    const answer = await post(portOf(apps.withShortcut), queryBody(SUM));
    expect(answer.status).toBe(200);
  });
});

describe("the shortcut steps aside", () => {
  it("while draining: fastify answers, with Connection: close", async () => {
    apps.withShortcut.lifecycle.draining = true;
    try {
      const { fast, shortcutTook } = await both(queryBody(SUM));
      expect(shortcutTook).toBe(false);
      expect(fast.status).toBe(200);
      expect(fast.headers.connection).toBe("close");
    } finally {
      apps.withShortcut.lifecycle.draining = false;
    }
  });

  it("with a per-key quota: fastify answers, and charges every field", async () => {
    const app = await start(true, { RATE_LIMIT: "3" });
    try {
      const twoFields = queryBody(`{ a: ${SUM.slice(2, -2)} b: ${SUM.slice(2, -2)} }`);
      const first = await post(portOf(app), twoFields);
      const second = await post(portOf(app), twoFields);
      expect([first.status, second.status]).toEqual([200, 429]);
    } finally {
      await app.close();
    }
  });
});
