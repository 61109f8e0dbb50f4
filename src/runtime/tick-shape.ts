/**
 * Keeps the hidden class of node's `process.nextTick` queue entries alive for the life of
 * the process. Node builds each entry as an object literal with computed (symbol) keys, so
 * V8 reaches its final shape only through transitions that nothing holds once the queue is
 * empty: every mark-compact dropped them, and the next `nextTick` calls went through V8's
 * runtime (`DefineKeyedOwnPropertyInLiteral`) again. Under load that cost ~9 µs of CPU per
 * HTTP request (seven calls each) with the production heap flags; holding one entry, which
 * is the resource `executionAsyncResource()` answers inside a tick, costs nothing.
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
