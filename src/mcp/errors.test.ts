import { describe, expect, it } from "vitest";
import { mcpError, rpcError } from "./errors.js";

describe("the MCP surface's error writer", () => {
  it("writes the SDK transport's refusal: a JSON-RPC error with id null", () => {
    const answer = mcpError(403, -32000, "Forbidden: no");
    expect(answer.status).toBe(403);
    expect(JSON.parse(answer.body as string)).toEqual({
      jsonrpc: "2.0",
      error: { code: -32000, message: "Forbidden: no" },
      id: null,
    });
  });

  it("answers a request by its own id", () => {
    expect(rpcError(7, -32603, "Internal error")).toEqual({
      jsonrpc: "2.0",
      error: { code: -32603, message: "Internal error" },
      id: 7,
    });
  });
});
