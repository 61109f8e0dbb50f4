/** Everything an operation module needs, in one import. */

export { z } from "zod";
export { MAX_EXACT_DIGITS, MAX_EXACT_ROOT_DIGITS, ROUNDED_DIGITS } from "./bounded.js";
export { CHAR_WORK, type Cost, digitSpan, ITEM_WORK, jsonBytes, REQUEST_BUDGET } from "./cost.js";
export {
  type ArithmeticResult,
  arithmeticResult,
  assertWritable,
  compareExact,
  Exact,
  exactFromWords,
  MAX_RESULT_DIGITS,
  nearestDouble,
  plainDigitCount,
  toPlain,
} from "./decimal.js";
export { Decimals } from "./decimals.js";
export { defineOperation, type Operation } from "./define.js";
export { CalculationError, NotFoundError } from "./errors.js";
export { groupDigits } from "./format.js";
export { arithmeticFields, nearestDoubleField } from "./outputs.js";
export { decimal, decimals, integer, list, text } from "./params.js";
