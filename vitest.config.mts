import { defineConfig } from "vitest/config";

export default defineConfig({
  test: {
    // The example suite runs with the rest, so it cannot fall behind the automation API.
    include: ["test/**/*.test.ts", "examples/automation/**/*.test.ts"],
    // Integration tests start real servers and subprocesses; two cores are shared.
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Most integration time is spent waiting on subprocesses (terraform, the CLI) and
    // servers, so two files at once on two cores; vitest's default here is one.
    maxWorkers: 2,
    env: { CHECKPOINT_DISABLE: "1" },
    globalSetup: ["test/global-setup.ts"],
  },
});
