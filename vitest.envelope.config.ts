import { defineConfig } from "vitest/config";
import base, { ENVELOPE } from "./vitest.config.js";

// `npm run test:envelope`: the built service's latency and memory goals, measured alone
// (beside the other suites' processes its figures say more about them than about it).
const { projects: _projects, ...baseTest } = base.test ?? {};

export default defineConfig({
  ...base,
  test: { ...baseTest, include: ENVELOPE, exclude: [], testTimeout: 300_000 },
});
