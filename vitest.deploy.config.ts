import { defineConfig } from "vitest/config";
import base from "./vitest.config.js";

// `npm run test:deploy`: the Docker system test, kept out of `npm test`.
export default defineConfig({
  ...base,
  test: {
    ...base.test,
    include: ["test/deploy/**/*.test.ts"],
    exclude: [],
    testTimeout: 180_000,
    hookTimeout: 900_000,
  },
});
