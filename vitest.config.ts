import { createRequire } from "node:module";
import { fileURLToPath } from "node:url";
import { configDefaults, defineConfig } from "vitest/config";

const require = createRequire(import.meta.url);

/** Real processes, Redis, a browser and the soak: they load the machine more than the code. */
export const SYSTEM = [
  "test/process/**/*.test.ts",
  "test/browser/**/*.test.ts",
  "test/abuse/soak.test.ts",
];

/** Latency and memory goals of the built service: alone on the machine (npm run test:envelope). */
export const ENVELOPE = ["test/process/envelope.test.ts"];

export default defineConfig({
  resolve: {
    // Vite would resolve `graphql` to its `.mjs` build while the packages that Node loads
    // (yoga, Pothos) get the CommonJS one: two copies, and graphql refuses types from
    // "another module or realm". Node itself loads only the CommonJS one; so do the tests.
    alias: [
      { find: /^graphql$/, replacement: require.resolve("graphql") },
      // The kit, as package.json's `imports`/`exports` map it under the `ucs-source` condition.
      {
        find: /^(?:#kit|utility-calculation-service\/kit)$/,
        replacement: fileURLToPath(new URL("./src/kit/index.ts", import.meta.url)),
      },
    ],
  },
  test: {
    environment: "node",
    testTimeout: 20_000,
    // `npm test` runs every project; `npm run test:fast`, unit and contract only. The
    // Docker system test runs on its own: npm run test:deploy.
    projects: [
      {
        extends: true,
        test: { name: "unit", include: ["operations/**/*.test.ts", "src/**/*.test.ts"] },
      },
      {
        extends: true,
        test: {
          name: "contract",
          include: ["test/**/*.test.ts"],
          exclude: [...configDefaults.exclude, "test/deploy/**", ...SYSTEM],
        },
      },
      {
        extends: true,
        test: {
          name: "system",
          include: SYSTEM,
          exclude: [...configDefaults.exclude, ...ENVELOPE],
        },
      },
    ],
  },
});
