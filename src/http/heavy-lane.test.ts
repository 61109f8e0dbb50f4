import fc from "fast-check";
import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it, vi } from "vitest";
import { declaredAnswer } from "../core/budget.js";
import { JsonBuffer, jsonInto, registerHeavyLane } from "./heavy-lane.js";

type Hook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;
type AnswerHook = (
  request: FastifyRequest,
  reply: FastifyReply,
  payload: unknown,
  done: (error: Error | null, payload?: unknown) => void,
) => void;

/** The lane's hooks, taken from a stand-in app, with small bounds. */
function hooks(maxWaiting = 3): { preHandler: Hook; preSerialization: AnswerHook } {
  const added: Record<string, unknown> = {};
  const app = {
    addHook: (name: string, fn: unknown) => {
      added[name] = fn;
    },
  } as unknown as FastifyInstance;
  registerHeavyLane(app, {
    heavyUrlBytes: 100,
    heavyBodyBytes: 100,
    heavyAnswerBytes: 1000,
    maxWaiting,
    pieceBytes: 1000,
  });
  return added as { preHandler: Hook; preSerialization: AnswerHook };
}

const lane = (maxWaiting = 3): Hook => hooks(maxWaiting).preHandler;

const request = (url: string, contentLength?: number) =>
  ({
    url,
    headers: contentLength === undefined ? {} : { "content-length": String(contentLength) },
  }) as unknown as FastifyRequest;

/** A request a surface's hook marked heavy (a GraphQL document not yet prepared). */
const marked = (req: FastifyRequest) => Object.assign(req, { heavy: true });

function reply() {
  const sent: {
    status?: number;
    headers: Record<string, string>;
    serializer?: (payload: unknown) => unknown;
  } = { headers: {} };
  const stub = {
    code(status: number) {
      sent.status = status;
      return stub;
    },
    headers(headers: Record<string, string>) {
      Object.assign(sent.headers, headers);
      return stub;
    },
    header(name: string, value: string) {
      sent.headers[name] = value;
      return stub;
    },
    type() {
      return stub;
    },
    send() {
      return stub;
    },
    raw: { once: () => {} },
    serializer(fn: (payload: unknown) => unknown) {
      sent.serializer = fn;
      return stub;
    },
  };
  return { stub: stub as unknown as FastifyReply, sent };
}

const turn = () => new Promise((resolve) => setImmediate(resolve));

describe("heavy lane", () => {
  it.each([
    ["a short URL", request("/v1/math/sum?numbers=1"), true],
    ["a small body", request("/graphql", 50), true],
    ["a long URL", request(`/v1/math/sum?numbers=${"1,".repeat(60)}`), false],
    ["a large body", request("/graphql", 5000), false],
    ["a short request its surface marked heavy", marked(request("/graphql", 50)), false],
  ])("%s runs at once: %s", (_name, req, atOnce) => {
    const hook = lane();
    let ran = false;
    hook(req, reply().stub, () => {
      ran = true;
    });
    expect(ran).toBe(atOnce);
  });

  it("runs heavy requests one per turn of the event loop, in arrival order", async () => {
    const hook = lane();
    const ran: number[] = [];
    for (const i of [1, 2, 3]) hook(request("x".repeat(200)), reply().stub, () => ran.push(i));
    expect(ran).toEqual([]);
    await turn();
    expect(ran).toEqual([1]);
    await turn();
    expect(ran).toEqual([1, 2]);
    await turn();
    expect(ran).toEqual([1, 2, 3]);
  });

  it("runs requests marked heavy in the same lane, in arrival order", async () => {
    const hook = lane();
    const ran: string[] = [];
    hook(marked(request("/graphql")), reply().stub, () => ran.push("marked"));
    hook(request("x".repeat(200)), reply().stub, () => ran.push("long"));
    hook(request("/v1/math/sum?numbers=1"), reply().stub, () => ran.push("cheap"));
    expect(ran).toEqual(["cheap"]);
    await turn();
    expect(ran).toEqual(["cheap", "marked"]);
    await turn();
    expect(ran).toEqual(["cheap", "marked", "long"]);
  });

  it("answers 503 with Retry-After past maxWaiting heavy requests", () => {
    const hook = lane(2);
    const outcomes = [1, 2, 3].map(() => {
      const { stub, sent } = reply();
      hook(request("x".repeat(200)), stub, () => {});
      return sent.status;
    });
    expect(outcomes).toEqual([undefined, undefined, 503]);
  });
});

describe("heavy answers", () => {
  /**
   * Hands `payload` to the lane's preSerialization hook as if its operation declared `bytes`;
   * what it hands on goes to `sent`, through the serialiser it set for the reply, if any.
   */
  function answer(hook: AnswerHook, bytes: number, payload: unknown, sent: unknown[]): void {
    declaredAnswer.bytes = bytes;
    const { stub, sent: replied } = reply();
    hook(request("/v1/misc/fizzbuzz"), stub, payload, (_error, out) =>
      sent.push(replied.serializer ? replied.serializer(out) : out),
    );
  }

  const text = (sent: unknown[]) =>
    sent.map((out) => (Buffer.isBuffer(out) ? out.toString("utf8") : out));

  it("serialises an answer declared large one per turn of the event loop, in order", async () => {
    const { preSerialization } = hooks();
    const sent: unknown[] = [];
    for (const i of [1, 2]) answer(preSerialization, 5000, { i }, sent);
    expect(sent).toEqual([]);
    await turn();
    expect(text(sent)).toEqual(['{"i":1}']);
    await turn();
    expect(text(sent)).toEqual(['{"i":1}', '{"i":2}']);
  });

  it("makes a large answer's JSON a piece per turn, as bytes JSON.stringify's text would be", async () => {
    const { preSerialization } = hooks();
    const payload = { count: 3, items: Array.from({ length: 100 }, (_, i) => `é${"x".repeat(i)}`) };
    const json = JSON.stringify(payload);
    const sent: unknown[] = [];
    // Declared short of the truth: the buffer grows.
    answer(preSerialization, 1000, payload, sent);
    let turns = 0;
    while (sent.length === 0 && turns < 100) {
      await turn();
      turns++;
    }
    // About a thousand characters a turn (pieceBytes), one slice of items more at most.
    expect(turns).toBeGreaterThanOrEqual(Math.floor(json.length / 2000));
    expect(Buffer.isBuffer(sent[0])).toBe(true);
    expect(sent[0]).toEqual(Buffer.from(json));
  });

  it("makes one large answer at a time: the next one's buffer waits until it is whole", async () => {
    const { preSerialization } = hooks();
    const payload = { items: Array.from({ length: 100 }, (_, i) => "x".repeat(i)) };
    const allocate = vi.spyOn(Buffer, "allocUnsafeSlow");
    try {
      const sent: unknown[] = [];
      for (let i = 0; i < 3; i++) answer(preSerialization, 6000, payload, sent);
      const buffersAtEach: number[] = [];
      for (let turns = 0; sent.length < 3 && turns < 100; turns++) {
        await turn();
        if (sent.length > buffersAtEach.length) buffersAtEach.push(allocate.mock.calls.length);
      }
      // Answer n is sent before answer n + 1 allocates its buffer.
      expect(buffersAtEach).toEqual([1, 2, 3]);
      expect(text(sent)).toEqual(Array(3).fill(JSON.stringify(payload)));
    } finally {
      allocate.mockRestore();
    }
  });

  /** What jsonInto writes of `value`, and how many pauses it made on the way. */
  function written(value: object, pieceBytes: number): { text: string; pauses: number } {
    const out = new JsonBuffer(1);
    let pauses = 0;
    for (const _ of jsonInto(value, out, pieceBytes)) pauses++;
    return { text: out.bytes().toString("utf8"), pauses };
  }

  it("writes any JSON data as JSON.stringify's text, pausing as it goes", () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.array(fc.jsonValue()),
          fc.dictionary(fc.string(), fc.jsonValue()),
          fc.array(fc.string({ unit: "binary" })),
          fc.dictionary(fc.string({ unit: "binary" }), fc.string({ unit: "binary" })),
        ),
        fc.integer({ min: 1, max: 64 }),
        (value, pieceBytes) => {
          expect(written(value, pieceBytes).text).toBe(JSON.stringify(value));
        },
      ),
    );
    const odd = {
      a: undefined,
      b: () => 1,
      c: [undefined, -0, Number.NaN, () => 1, Symbol("s")],
      d: new Date(0),
      e: [new Date(1), { toJSON: (key: string) => `key ${key}` }],
      f: { toJSON: () => undefined },
      g: ['"', "\\", "\u0000", "\u001f", "\u2028", "\ud800", "\udfff x", "😀", "é", ""],
    };
    expect(written(odd, 1).text).toBe(JSON.stringify(odd));
  });

  it("pauses after about pieceBytes bytes each time, and not in a small answer", () => {
    // ~300 KB either way (long strings one by one, short ones a slice at a time): a pause
    // every 10 to 20 KB.
    const long = Array.from({ length: 1000 }, (_, i) => `${i}`.padEnd(298, "x"));
    const short = Array.from({ length: 10_000 }, (_, i) => `${i}`.padEnd(28, "x"));
    for (const items of [long, short]) {
      const { pauses } = written({ items }, 10_000);
      expect(pauses).toBeGreaterThanOrEqual(15);
      expect(pauses).toBeLessThanOrEqual(32);
    }
    expect(written({ items: ["a", "b"] }, 10_000).pauses).toBe(0);
  });

  it("writes a repeated long string without stringifying it again", () => {
    const word = "w".repeat(300);
    const stringify = vi.spyOn(JSON, "stringify");
    try {
      expect(written({ items: Array(100).fill(word) }, 1000).text).toBe(
        `{"items":[${Array(100).fill(`"${word}"`).join(",")}]}`,
      );
      expect(stringify.mock.calls.filter(([value]) => value === word)).toHaveLength(1);
    } finally {
      stringify.mockRestore();
    }
  });

  it("serialises a small answer at once, and reads each declaration once", () => {
    const { preSerialization } = hooks();
    const sent: unknown[] = [];
    answer(preSerialization, 999, "small", sent);
    expect(sent).toEqual(["small"]);
    expect(declaredAnswer.bytes).toBe(0);
  });

  it("forgets a declaration left by an earlier calculation when a request reaches its handler", () => {
    const { preHandler } = hooks();
    declaredAnswer.bytes = 5000;
    preHandler(request("/v1/math/sum?numbers=1"), reply().stub, () => {});
    expect(declaredAnswer.bytes).toBe(0);
  });

  it("sends a large answer at once past maxWaiting: the work is done, nothing is refused", () => {
    const { preSerialization } = hooks(2);
    const sent: unknown[] = [];
    for (const i of [1, 2, 3]) answer(preSerialization, 5000, i, sent);
    expect(sent).toEqual([3]);
  });
});

describe("heavy lane in the app", () => {
  it("comes after authentication: a heavy request without a key is a 401, never a place in the lane", async () => {
    const { testApp, AUTH } = await import("../../test/helpers.js");
    const app = await testApp();
    const heavyPath = `/v1/math/sum?numbers=${"1,".repeat(2000)}1`;
    // Without a key: refused by the access layer, whatever the lane holds.
    const keyless = await Promise.all(
      Array.from({ length: 40 }, () => app.inject({ url: heavyPath })),
    );
    expect(new Set(keyless.map((answer) => answer.statusCode))).toEqual(new Set([401]));
    // With a key, the same request is heavy and answered through the lane.
    const keyed = await app.inject({ url: heavyPath, headers: AUTH });
    expect(keyed.statusCode).toBe(200);
    expect(keyed.json().count).toBe(2001);
    await app.close();
  });

  it("answers the costliest FizzBuzz whole through the lane, as the runner made it", async () => {
    const { testApp, AUTH } = await import("../../test/helpers.js");
    const { execute } = await import("../core/runner.js");
    const { default: fizzbuzz } = await import("../../operations/misc/fizzbuzz.js");
    const app = await testApp();
    // Divisor 1 for every rule: each of the 10,000 items carries all ten words.
    const rules = Array.from({ length: 10 }, (_, i) => `1:${"ABCDEFGHIJ"[i]?.repeat(32)}`);
    const [cheap, costly] = await Promise.all([
      app.inject({ url: "/v1/math/sum?numbers=1,2", headers: AUTH }),
      app.inject({
        url: `/v1/misc/fizzbuzz?start=1&end=10000&rules=${rules.join(",")}`,
        headers: AUTH,
      }),
    ]);
    expect(cheap.statusCode).toBe(200);
    expect(costly.statusCode).toBe(200);
    expect(costly.body.length).toBeGreaterThan(3_000_000);
    expect(costly.body).toBe(JSON.stringify(execute(fizzbuzz, { start: 1, end: 10_000, rules })));
    await app.close();
  });
});
