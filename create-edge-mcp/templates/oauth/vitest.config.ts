// Tests run inside workerd, the Workers runtime, with the bindings of wrangler.toml.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" }, remoteBindings: false })],
  test: {
    include: ["test/**/*.test.ts"],
    // Console output (such as the access log) is shown for failing tests only.
    silent: "passed-only",
    // The first request of a run also builds and loads the Worker's modules in workerd, which takes
    // seconds on a small or busy machine; vitest's default of 5 s would fail that first test.
    testTimeout: 30_000,
  },
});
