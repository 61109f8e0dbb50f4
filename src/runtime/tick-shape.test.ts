import { describe, expect, it } from "vitest";
import { holdTickShape } from "./tick-shape.js";

describe("holdTickShape", () => {
  it("holds one of node's nextTick entries, the same one on every call", async () => {
    const entry = await holdTickShape();
    // A TickObject: its callback and arguments, and node's async-id symbols.
    expect(Object.keys(entry)).toEqual(["callback", "args"]);
    const symbols = Object.getOwnPropertySymbols(entry).map(String);
    expect(symbols).toEqual(
      expect.arrayContaining(["Symbol(async_id_symbol)", "Symbol(trigger_async_id_symbol)"]),
    );
    expect(await holdTickShape()).toBe(entry);
  });
});
