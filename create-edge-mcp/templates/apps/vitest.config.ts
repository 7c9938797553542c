// Tests run inside workerd, the Workers runtime, with the bindings of wrangler.toml.
import { cloudflareTest } from "@cloudflare/vitest-plugin";
import { defineConfig } from "vitest/config";

export default defineConfig({
  plugins: [cloudflareTest({ wrangler: { configPath: "./wrangler.toml" }, remoteBindings: false })],
  // Console output (such as the access log) is shown for failing tests only.
  test: { include: ["test/**/*.test.ts"], silent: "passed-only" },
});
