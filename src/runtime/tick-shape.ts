/**
 * Keeps the hidden class of node's `process.nextTick` queue entries alive for the life of
 * the process. Node builds each entry as an object literal with computed (symbol) keys, so
 * V8 reaches its final shape only through transitions that nothing holds once the queue is
 * empty: every mark-compact dropped them, and the next `nextTick` calls went through V8's
 * runtime (`DefineKeyedOwnPropertyInLiteral`) again, seven times per HTTP request (figures
 * in docs/performance.md). One entry, the resource `executionAsyncResource()` answers
 * inside a tick, is held instead.
 */
import { executionAsyncResource } from "node:async_hooks";

let held: object | undefined;

/** Starts holding one `nextTick` entry (once per process); resolves with it. */
export function holdTickShape(): Promise<object> {
  return new Promise((resolve) => {
    if (held !== undefined) {
      resolve(held);
      return;
    }
    process.nextTick(() => {
      held ??= executionAsyncResource();
      resolve(held);
    });
  });
}
