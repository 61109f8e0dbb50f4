import type { FastifyInstance, FastifyReply, FastifyRequest } from "fastify";
import { describe, expect, it } from "vitest";
import { registerHeavyLane } from "./heavy-lane.js";

type Hook = (request: FastifyRequest, reply: FastifyReply, done: () => void) => void;

/** The lane's hook, taken from a stand-in app, with small bounds. */
function lane(maxWaiting = 3): Hook {
  let hook: Hook | undefined;
  const app = { addHook: (_name: string, fn: Hook) => (hook = fn) } as unknown as FastifyInstance;
  registerHeavyLane(app, { heavyUrlBytes: 100, heavyBodyBytes: 100, maxWaiting });
  return hook as Hook;
}

const request = (url: string, contentLength?: number) =>
  ({
    url,
    headers: contentLength === undefined ? {} : { "content-length": String(contentLength) },
  }) as unknown as FastifyRequest;

function reply() {
  const sent: { status?: number; headers: Record<string, string> } = { headers: {} };
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
});
