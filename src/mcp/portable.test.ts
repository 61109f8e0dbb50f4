import { describe, expect, it } from "vitest";
import { portableSchema } from "./portable.js";

describe("portableSchema", () => {
  it("writes a type array as anyOf, keeping annotations outside and constraints in each branch", () => {
    expect(
      portableSchema({
        type: ["integer", "null"],
        minimum: 0,
        description: "d",
        default: null,
      }),
    ).toEqual({
      anyOf: [{ type: "integer", minimum: 0 }, { type: "null" }],
      description: "d",
      default: null,
    });
  });

  it("rewrites every level, and leaves its argument as it was", () => {
    const schema = {
      type: "object",
      properties: {
        list: { type: "array", items: { type: ["string", "null"] } },
        either: { anyOf: [{ type: ["number", "null"] }, { type: "string" }] },
        one: { type: ["boolean"] },
      },
      additionalProperties: false,
    };
    const copy = structuredClone(schema);
    expect(portableSchema(schema)).toEqual({
      type: "object",
      properties: {
        list: { type: "array", items: { anyOf: [{ type: "string" }, { type: "null" }] } },
        either: {
          anyOf: [{ anyOf: [{ type: "number" }, { type: "null" }] }, { type: "string" }],
        },
        one: { type: "boolean" },
      },
      additionalProperties: false,
    });
    expect(schema).toEqual(copy);
  });
});
