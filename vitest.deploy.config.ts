import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// `npm run test:deploy`: the Docker system test, kept out of `npm test`.
const { projects: _projects, ...baseTest } = base.test ?? {};

export default defineConfig({
  ...base,
  test: {
    ...baseTest,
    include: ["test/deploy/**/*.test.ts"],
    exclude: [],
    testTimeout: 180_000,
    hookTimeout: 900_000,
  },
});
