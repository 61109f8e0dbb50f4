/**
 * No single request and no single client can take the service down (issue 11), against a
 * process started as in production: NODE_ENV=production and the heap caps of `npm start`.
 *
 * - A GraphQL document of 100 aliased FizzBuzz fields of 10,000 items (ten 32-character
 *   words, as variables) would answer ~330 MB: it is refused whole, at once.
 * - Documents of 100 aliases sharing one large variable (10,000 long numbers for sum, range,
 *   product; 100,000 emoji for the hashes; combining marks for case detection) are refused
 *   whole: the variable is read once or twice, not 100 times.
 * - An MCP JSON-RPC batch of 100 such tool calls is refused whole, likewise.
 * - 200 aliased `__schema` fields (each the whole schema) are refused whole.
 * - One connection pipelines 200 requests with ~1 MB answers and never reads: it is cut
 *   off, the process's memory stays bounded, and other clients are still answered.
 */
import { connect } from "node:net";
import { afterAll, expect, it } from "vitest";
import {
  cpuMs,
  HOST,
  httpGet,
  residentMb,
  type Server,
  START,
  sleep,
  startServer,
  stopAll,
} from "./helpers.js";

const KEY = "overload-test-key-0123456789abcdef";
const HEADERS = { "x-api-key": KEY };
/** Ten rules of 32-character words: up to 320 characters an item. */
const RULES = Array.from(
  { length: 10 },
  (_, i) => `${i + 1}:${String.fromCharCode(65 + i).repeat(32)}`,
);

afterAll(stopAll);

async function production(): Promise<Server> {
  expect(START.nodeFlags).toContain("--max-old-space-size=128");
  return startServer(
    {
      ...START.env,
      API_KEYS: KEY,
      NODE_ENV: "production",
      LOG_LEVEL: "warn",
      // The whole catalogue in tools/list, the costliest listing there is.
      MCP_TOOL_SEARCH_THRESHOLD: "0",
    },
    { nodeFlags: START.nodeFlags },
  );
}

/** The process is alive and still answers an ordinary request. */
async function expectStillServing(server: Server): Promise<void> {
  expect(server.running, server.output()).toBe(true);
  expect(
    (await httpGet(server.port, "/v1/math/sum?numbers=1,2", { headers: HEADERS })).status,
  ).toBe(200);
}

function postGraphql(
  port: number,
  body: unknown,
): Promise<{ status: number; body: string; ms: number }> {
  const payload = JSON.stringify(body);
  const started = performance.now();
  return fetch(`http://${HOST}:${port}/graphql`, {
    method: "POST",
    headers: { ...HEADERS, "content-type": "application/json" },
    body: payload,
  }).then(async (response) => ({
    status: response.status,
    body: await response.text(),
    ms: performance.now() - started,
  }));
}

it("refuses the 100-field FizzBuzz document in under 100 ms, and keeps serving", async () => {
  const server = await production();
  // Warm up the GraphQL path with a small document of the same shape.
  const small = `query($r: [String!]) { a: misc { fizzbuzz(start: 1, end: 3, rules: $r) { items } } b: misc { fizzbuzz(start: 1, end: 3, rules: $r) { items } } }`;
  for (let i = 0; i < 5; i++)
    expect((await postGraphql(server.port, { query: small, variables: { r: RULES } })).status).toBe(
      200,
    );

  // Ten texts never seen before, each parsed, validated and measured afresh. Other
  // processes share the machine's two cores, so the server's own CPU time per refusal is
  // what must stay under 100 ms; the wall time is reported beside it.
  const fields = Array.from({ length: 100 }, (_, i) => `f${i}: misc { ...F }`).join(" ");
  const textFor = (start: number) =>
    `query($r: [String!]) { ${fields} } fragment F on MiscOperations { fizzbuzz(start: ${start}, end: 10000, rules: $r) { items } }`;
  const ms: number[] = [];
  const cpuBefore = cpuMs(server.pid);
  for (let start = 1; start <= 10; start++) {
    const answer = await postGraphql(server.port, {
      query: textFor(start),
      variables: { r: RULES },
    });
    expect(answer.status, answer.body.slice(0, 300)).toBe(400);
    expect(JSON.parse(answer.body).errors[0].extensions.code).toBe("LIMIT_EXCEEDED");
    ms.push(answer.ms);
  }
  const cpuPerRefusal = (cpuMs(server.pid) - cpuBefore) / 10;
  ms.sort((x, y) => x - y);
  console.log(
    `[overload] 100-field FizzBuzz documents refused: server CPU ${cpuPerRefusal.toFixed(0)} ms each; ` +
      `wall ${ms.map((m) => m.toFixed(0)).join(", ")} ms`,
  );
  expect(cpuPerRefusal).toBeLessThan(100);
  expect(ms[5]).toBeLessThan(1000);
  const query = textFor(1);

  // And again with other values: each request is checked with its own variables.
  const again = await postGraphql(server.port, { query, variables: { r: RULES.slice(0, 3) } });
  expect(again.status).toBe(400);
  await expectStillServing(server);
}, 60_000);

it("refuses 100 aliases sharing one large variable, whatever the operation, in under 100 ms each", async () => {
  const server = await production();
  // 98 characters a number: the body stays under the 1 MiB limit.
  const numbers = Array.from({ length: 10_000 }, () => `${"9".repeat(49)}.${"1".repeat(48)}`);
  const emoji = "😀".repeat(100_000);
  const marks = "\u{1D167}".repeat(500) + "A".repeat(500);
  // [field with its arguments, variable declarations, variables]: the costliest legal
  // values, each shared by 100 aliases (found by outside attack runs).
  const cases: [string, string, Record<string, unknown>][] = [
    ["math { sum(numbers: $n) { decimal } }", "$n: [Decimal!]!", { n: numbers }],
    ["stats { range(numbers: $n) { decimal } }", "$n: [Decimal!]!", { n: numbers }],
    ["stats { product(numbers: $n) { decimal } }", "$n: [Decimal!]!", { n: numbers }],
    ["hash { hmacMd5(text: $t, key: $t) { digest } }", "$t: String!", { t: emoji }],
    ["crypto { checksumMd5(text: $t) { digest } }", "$t: String!", { t: emoji }],
    ["case { detect(text: $t) { case } }", "$t: String!", { t: marks }],
  ];
  const document = (field: string, declarations: string) =>
    `query(${declarations}) { ${Array.from({ length: 100 }, (_, i) => `f${i}: ${field}`).join(" ")} }`;
  const small = `query($n: [Decimal!]!) { a: math { sum(numbers: $n) { decimal } } b: stats { range(numbers: $n) { decimal } } }`;
  for (let i = 0; i < 5; i++)
    expect(
      (await postGraphql(server.port, { query: small, variables: { n: ["1", "2"] } })).status,
    ).toBe(200);
  for (const [field, declarations, variables] of cases) {
    const refuse = async () => {
      const answer = await postGraphql(server.port, {
        query: document(field, declarations),
        variables,
      });
      expect(answer.status, answer.body.slice(0, 300)).toBe(400);
      expect(JSON.parse(answer.body).errors[0].extensions.limit).toBe("budget");
      return answer.ms;
    };
    // The first one also compiles the paths it takes; the next three are what an attacker
    // repeating it costs.
    const cold = await refuse();
    const cpuBefore = cpuMs(server.pid);
    const ms = [await refuse(), await refuse(), await refuse()];
    const cpu = (cpuMs(server.pid) - cpuBefore) / 3;
    console.log(
      `[overload] 100 × ${field.split("(")[0]} over one shared variable refused: server CPU ${cpu.toFixed(0)} ms each; wall ${cold.toFixed(0)} (first), ${ms.map((m) => m.toFixed(0)).join(", ")} ms`,
    );
    expect(cpu).toBeLessThan(100);
  }
  await expectStillServing(server);
}, 90_000);

it("bounds documents whose fields each bring their own large or invalid variable", async () => {
  const server = await production();
  const sums = (count: number) =>
    `query(${Array.from({ length: count }, (_, i) => `$v${i}: [Decimal!]!`).join(", ")}) { math { ${Array.from({ length: count }, (_, i) => `a${i}: sum(numbers: $v${i}) { count }`).join(" ")} } }`;
  // Third outside attack run: 98 fields over 98 variables of 2,500 invalid numbers (985 KB)
  // cost 1.7-2.8 s, every field parsed by zod in the budget and counted for nothing; one
  // field over 480,000 numbers cost 210-290 ms and took RSS to 238 MB.
  const cases: [string, string, Record<string, unknown>, number][] = [
    [
      "98 fields, each its own 2,500 invalid numbers",
      sums(98),
      Object.fromEntries(Array.from({ length: 98 }, (_, i) => [`v${i}`, Array(2500).fill("x")])),
      400,
    ],
    ["2 fields, one over 240,000 numbers", sums(2), { v0: Array(240_000).fill(1), v1: ["1"] }, 400],
    [
      "40 fields, each its own 250 invalid numbers (10,000 in all)",
      sums(40),
      Object.fromEntries(Array.from({ length: 40 }, (_, i) => [`v${i}`, Array(250).fill("x")])),
      400,
    ],
  ];
  for (const [name, query, variables, status] of cases) {
    const send = () => postGraphql(server.port, { query, variables });
    expect((await send()).status).toBe(status); // the first also compiles what it runs
    const cpuBefore = cpuMs(server.pid);
    for (let round = 0; round < 3; round++) expect((await send()).status).toBe(status);
    const cpu = (cpuMs(server.pid) - cpuBefore) / 3;
    console.log(`[overload] ${name}: ${status}, server CPU ${cpu.toFixed(0)} ms each`);
    expect(cpu).toBeLessThan(100);
  }
  const { peak } = residentMb(server.pid);
  console.log(`[overload] peak RSS after these documents: ${peak} MB`);
  await expectStillServing(server);
}, 90_000);

it("refuses 200 aliased full introspections (which once took the heap past its cap), and keeps serving", async () => {
  const server = await production();
  const fragment =
    "fragment S on __Schema { types { name description kind fields { name description args { name description type { name kind ofType { name } } } type { name kind ofType { name kind } } } inputFields { name } enumValues { name description } } }";
  const query = `{ ${Array.from({ length: 200 }, (_, i) => `a${i}: __schema { ...S }`).join(" ")} } ${fragment}`;
  for (let round = 0; round < 3; round++) {
    const answer = await postGraphql(server.port, { query });
    expect(answer.status, answer.body.slice(0, 300)).toBe(400);
    expect(JSON.parse(answer.body).errors[0].extensions.limit).toBe("introspection");
  }
  // One __schema whose aliases multiply on three levels (1.5 KB; it exhausted the heap).
  const level = (prefix: string, inner: string) =>
    Array.from({ length: 20 }, (_, i) => `${prefix}${i}: ${inner}`).join(" ");
  const aliased = `{ __schema { types { ...A } } } fragment A on __Type { ${level("a", "fields { type { ...B } }")} } fragment B on __Type { ${level("b", "fields { type { ...C } }")} } fragment C on __Type { ${level("c", "name")} }`;
  const refused = await postGraphql(server.port, { query: aliased });
  expect(refused.status, refused.body.slice(0, 300)).toBe(400);
  expect(JSON.parse(refused.body).errors[0].extensions.limit).toBe("introspection");
  // One full introspection, as GraphiQL sends, is still answered.
  const one = await postGraphql(server.port, { query: `{ __schema { ...S } } ${fragment}` });
  expect(one.status).toBe(200);
  await expectStillServing(server);
}, 60_000);

it("refuses an MCP batch of 100 FizzBuzz tool calls whose answers add up past the budget, and keeps serving", async () => {
  const server = await production();
  const call = (id: number) => ({
    jsonrpc: "2.0",
    id,
    method: "tools/call",
    params: { name: "misc_fizzbuzz", arguments: { start: 1, end: 10000, rules: RULES } },
  });
  const post = (body: unknown) =>
    fetch(`http://${HOST}:${server.port}/mcp`, {
      method: "POST",
      headers: {
        ...HEADERS,
        "content-type": "application/json",
        accept: "application/json, text/event-stream",
      },
      body: JSON.stringify(body),
    });
  // One such call fits; a hundred in one batch (~200 MB of answers) would exhaust the heap.
  expect((await post(call(1))).status).toBe(200);
  const cpuBefore = cpuMs(server.pid);
  const batch = await post(Array.from({ length: 100 }, (_, i) => call(i)));
  const cpu = cpuMs(server.pid) - cpuBefore;
  const answer = (await batch.json()) as { error: { code: number; message: string } };
  expect(batch.status).toBe(400);
  expect(answer.error.code).toBe(-32600);
  expect(answer.error.message).toMatch(/batch's messages together/);
  console.log(
    `[overload] MCP batch of 100 FizzBuzz calls refused: server CPU ${cpu.toFixed(0)} ms`,
  );
  expect(cpu).toBeLessThan(1000);

  // Batches whose cost was their refusals or their listings (outside attack run): 25 calls of
  // 10,000 invalid numbers each (3.8-5.2 s and ~300 MB before), 100 tool listings (4.8 MB).
  const invalidCalls = (calls: number, items: number) =>
    Array.from({ length: calls }, (_, i) => ({
      jsonrpc: "2.0",
      id: i,
      method: "tools/call",
      params: { name: "math_sum", arguments: { numbers: Array(items).fill("x") } },
    }));
  const listings = Array.from({ length: 100 }, (_, i) => ({
    jsonrpc: "2.0",
    id: i,
    method: "tools/list",
  }));
  for (const [name, body, reason] of [
    // 250,000 values: refused with the body, before it is parsed ({"detail"}).
    ["25 calls of 10,000 invalid numbers", invalidCalls(25, 10_000), /more than 20000 values/],
    ["4 calls of 3,000 invalid numbers", invalidCalls(4, 3_000), /more than 10000 list items/],
    ["100 tool listings", listings, /answer would take about/],
  ] as const) {
    // The first also compiles the paths it takes (as in the tests above); the next three
    // are what an attacker repeating it costs.
    const refuse = async () => {
      const refused = await post(body);
      expect(refused.status).toBe(400);
      const answer = (await refused.json()) as { error?: { message: string }; detail?: string };
      expect(answer.error?.message ?? answer.detail).toMatch(reason);
    };
    await refuse();
    const before = cpuMs(server.pid);
    for (let round = 0; round < 3; round++) await refuse();
    const spent = (cpuMs(server.pid) - before) / 3;
    console.log(`[overload] MCP batch of ${name} refused: server CPU ${spent.toFixed(0)} ms each`);
    expect(spent).toBeLessThan(100);
  }
  await expectStillServing(server);
}, 60_000);

it("refuses 1 MB GraphQL bodies that are one string in under 100 ms of server CPU each", async () => {
  const server = await production();
  // Fifth outside attack run: yoga's server adapter ran Object.keys over a string body, one
  // key per character: 420-680 ms of CPU and ~40 MB for each such request.
  const cases: [string, string, string, RegExp][] = [
    [
      "application/graphql",
      "application/graphql",
      `{ __typename }${" ".repeat(1_000_000)}`,
      /at most 32768 bytes/,
    ],
    ["a JSON string", "application/json", JSON.stringify("x".repeat(1_000_000)), /not string/],
  ];
  for (const [name, contentType, body, message] of cases) {
    const send = async () => {
      const response = await fetch(`http://${HOST}:${server.port}/graphql`, {
        method: "POST",
        headers: { ...HEADERS, "content-type": contentType },
        body,
      });
      expect(response.status).toBe(400);
      expect(
        ((await response.json()) as { errors: { message: string }[] }).errors[0]?.message,
      ).toMatch(message);
    };
    await send(); // the first also loads yoga
    const before = cpuMs(server.pid);
    for (let round = 0; round < 3; round++) await send();
    const cpu = (cpuMs(server.pid) - before) / 3;
    console.log(
      `[overload] 1 MB GraphQL body as ${name} refused: server CPU ${cpu.toFixed(0)} ms each`,
    );
    expect(cpu).toBeLessThan(100);
  }
  await expectStillServing(server);
}, 60_000);

it("cuts off a client that pipelines 200 ~1 MB answers and never reads; memory stays bounded", async () => {
  const server = await production();
  // Three 32-character words for every number: ~1 MB per answer.
  const rules = RULES.slice(0, 3)
    .map((rule) => `1${rule.slice(rule.indexOf(":"))}`)
    .join(",");
  const path = `/v1/misc/fizzbuzz?start=1&end=10000&rules=${rules}`;
  const probe = await httpGet(server.port, path, { headers: HEADERS });
  expect(probe.body.length).toBeGreaterThan(900_000);

  const socket = connect(server.port, HOST);
  socket.on("error", () => {});
  // Listened for from the start: the server may cut it before a byte is read.
  const ended = new Promise<boolean>((resolve) => socket.once("close", () => resolve(true)));
  await new Promise<void>((resolve) => socket.once("connect", () => resolve()));
  socket.pause(); // not a byte read for the next three seconds
  socket.write(`GET ${path} HTTP/1.1\r\nHost: ${HOST}\r\nX-API-Key: ${KEY}\r\n\r\n`.repeat(200));

  let sampledMb = 0;
  const watch = setInterval(() => {
    if (server.running) sampledMb = Math.max(sampledMb, residentMb(server.pid).now);
  }, 50);
  await sleep(3000);
  // A well-behaved client meanwhile.
  const normal = await httpGet(server.port, "/v1/math/sum?numbers=1,2", { headers: HEADERS });
  clearInterval(watch);
  expect(server.running, server.output()).toBe(true);
  const { peak } = residentMb(server.pid);

  // Now read: a connection the server cut ends after what the kernel buffers held, far
  // short of 200 answers (which would be 200 MB).
  let received = 0;
  socket.on("data", (chunk: Buffer) => {
    received += chunk.length;
  });
  socket.resume();
  const closed = await Promise.race([ended, sleep(10_000).then(() => false)]);
  socket.destroy();
  const answers = received / probe.body.length;
  console.log(
    `[overload] pipelining client: connection ${closed ? "cut" : "still open"} after ${answers.toFixed(1)} answers' worth of bytes; ` +
      `RSS peak ${peak.toFixed(1)} MB (sampled during the abuse ${sampledMb.toFixed(1)} MB)`,
  );
  expect(normal.status).toBe(200);
  expect(closed).toBe(true);
  expect(answers).toBeLessThan(20);
  // Run through tsx (compiling on the fly), the process starts ~20 MB above `npm start`.
  expect(peak).toBeLessThan(180);
  expect(server.running, server.output()).toBe(true);
}, 60_000);
