import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    include: ["src/**/*.test.ts", "test/**/*.test.ts"],
    globalSetup: ["test/global-setup.ts"],
    testTimeout: 120_000,
    hookTimeout: 120_000,
    // Two cores: integration tests start anvil and compilers, so keep parallelism modest.
    pool: "forks",
    maxWorkers: 2,
  },
});
