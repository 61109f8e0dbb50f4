/**
 * The two custom scalars of the GraphQL schema.
 *
 * `Decimal` carries a decimal number's exact digits to the operation, which validates it
 * (the same check as REST), so a bad value fails only the field it was given to.
 * `SafeInt` carries integers whose range exceeds GraphQL's 32-bit `Int`.
 */
import { GraphQLError, GraphQLScalarType, Kind, print, type ValueNode } from "graphql";

/**
 * A decimal number as a string or a number literal, kept as written: `0.1` arrives as the
 * text "0.1", never as the double nearest to it. Junk strings pass through unchanged on
 * purpose: the operation's validation refuses them at the argument's own field.
 *
 * @example
 * // { math { sum(numbers: [0.1, "0.2", 1e400]) { decimal } } }
 * // the handler receives ["0.1", "0.2", "1e400"]
 */
export const DecimalScalar = new GraphQLScalarType<string, string>({
  name: "Decimal",
  description:
    'A decimal number, exact: a string (`"0.1"`, `"-2.5E-4"`) or a number literal (`0.1`) ' +
    "whose digits are kept as written, never rounded through a double. The value is checked by " +
    'the operation, so an invalid one (`"abc"`) fails only its own field, with `BAD_USER_INPUT`.',
  serialize(value) {
    if (typeof value === "string") return value;
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    throw new GraphQLError(`Decimal cannot represent ${typeof value} value`);
  },
  parseValue(value) {
    if (typeof value === "string") return value;
    // JSON variables: JSON.parse already turned the text into a double; its shortest
    // round-trip text is the best that is left (send a string to keep every digit).
    if (typeof value === "number" && Number.isFinite(value)) return String(value);
    throw new GraphQLError(
      `Decimal must be a string or a number, not ${value === null ? "null" : typeof value}`,
    );
  },
  parseLiteral(ast: ValueNode) {
    // For Int, Float and String nodes `.value` is the literal's source text (for strings,
    // its content): the exact digits the client wrote.
    if (ast.kind === Kind.INT || ast.kind === Kind.FLOAT || ast.kind === Kind.STRING) {
      return ast.value;
    }
    throw new GraphQLError(`Decimal must be a string or a number literal, not ${print(ast)}`, {
      nodes: ast,
    });
  },
});

const INTEGER_TEXT = /^-?\d{1,16}$/;

function safeInteger(value: unknown): number | undefined {
  const number =
    typeof value === "number"
      ? value
      : typeof value === "string" && INTEGER_TEXT.test(value)
        ? Number(value)
        : Number.NaN;
  return Number.isSafeInteger(number) ? number : undefined;
}

const SAFE_RANGE = `−(2^53 − 1) to 2^53 − 1`;

/**
 * An integer in JavaScript's safe range, ±(2^53 − 1): for parameters and fields whose
 * range does not fit GraphQL's 32-bit `Int`. Accepts integer literals, numbers and
 * integer strings (`"9007199254740991"`).
 *
 * @example
 * // { datetime { isLeapYear(year: 4000000000) { isLeapYear } } }
 */
export const SafeIntScalar = new GraphQLScalarType<number | string, number>({
  name: "SafeInt",
  description: `An integer from ${SAFE_RANGE} (beyond the 32 bits of \`Int\`). Written as an integer literal, or as a string of digits. The value is checked by the operation, so an invalid one fails only its own field, with \`BAD_USER_INPUT\`.`,
  serialize(value) {
    const number = safeInteger(value);
    if (number === undefined) throw new GraphQLError("SafeInt cannot represent this value");
    return number;
  },
  // Inputs are passed on, not refused here: the operation's own check reports a value out
  // of range or not an integer for its field alone (BAD_USER_INPUT), and the batch goes on.
  parseValue(value) {
    if (typeof value === "number" || typeof value === "string") return safeInteger(value) ?? value;
    throw new GraphQLError(
      `SafeInt must be an integer or a string of digits, not ${value === null ? "null" : typeof value}`,
    );
  },
  parseLiteral(ast: ValueNode) {
    if (ast.kind === Kind.INT) return safeInteger(ast.value) ?? Number(ast.value);
    if (ast.kind === Kind.STRING || ast.kind === Kind.FLOAT)
      return safeInteger(ast.value) ?? ast.value;
    throw new GraphQLError(`SafeInt must be an integer literal, not ${print(ast)}`, { nodes: ast });
  },
});
