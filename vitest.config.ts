import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["operations/**/*.test.ts", "src/**/*.test.ts", "test/**/*.test.ts"],
    environment: "node",
    testTimeout: 20_000,
  },
});
