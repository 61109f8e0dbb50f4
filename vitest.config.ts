import { createRequire } from "node:module";
import { configDefaults, defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

export default defineConfig({
  resolve: {
    // Vite would resolve `graphql` to its `.mjs` build while the packages that Node loads
    // (yoga, Pothos) get the CommonJS one: two copies, and graphql refuses types from
    // "another module or realm". Node itself loads only the CommonJS one; so do the tests.
    alias: [{ find: /^graphql$/, replacement: require.resolve("graphql") }],
  },
  test: {
    include: ["operations/**/*.test.ts", "src/**/*.test.ts", "test/**/*.test.ts"],
    // The Docker system test runs on its own: npm run test:deploy.
    exclude: [...configDefaults.exclude, "test/deploy/**"],
    environment: "node",
    testTimeout: 20_000,
  },
});
