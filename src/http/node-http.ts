/**
 * Node's `node:http`, taken without an ES `import`: the ESM facade reads every export, and
 * its lazy WebSocket, CloseEvent and MessageEvent getters load undici (Node's fetch, ~12 MB
 * resident), which the service never uses (`test/start-modules.test.ts`). Types may still
 * be imported from `node:http`: a type import loads nothing.
 */
export const http = process.getBuiltinModule("node:http");
