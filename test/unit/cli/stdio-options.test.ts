// The command line of `edge-mcp stdio`.
import { describe, expect, it } from "vitest";
import { parseStdioOptions } from "../../../cli/stdio-options.mjs";
import { UsageError } from "../../../cli/usage-error.mjs";

describe("parseStdioOptions", () => {
  it("defaults to the project's wrangler config, Host localhost and /mcp", () => {
    expect(parseStdioOptions([])).toEqual({
      configs: [],
      env: undefined,
      vars: {},
      host: "localhost",
      path: "/mcp",
      headers: {},
      persistTo: undefined,
      maxInFlight: 64,
    });
  });

  it("takes several configs, an env, vars, a tenant, headers and a persistence directory, in both spellings", () => {
    const options = parseStdioOptions([
      "--config",
      "a/wrangler.toml",
      "-c",
      "b/wrangler.toml",
      "--env=staging",
      "--var",
      "MCP_DEBUG:true",
      "--var=GREETING:a:b",
      "--tenant-host",
      "acme.localhost",
      "--path",
      "/t/globex/mcp",
      "--header",
      "Authorization: Bearer abc",
      "--persist-to",
      "/tmp/state",
      "--max-in-flight=8",
    ]);
    expect(options).toEqual({
      configs: ["a/wrangler.toml", "b/wrangler.toml"],
      env: "staging",
      vars: { MCP_DEBUG: "true", GREETING: "a:b" },
      host: "acme.localhost",
      path: "/t/globex/mcp",
      headers: { authorization: "Bearer abc" },
      persistTo: "/tmp/state",
      maxInFlight: 8,
    });
  });

  it.each([
    [["--port", "8787"], /unknown argument '--port'/],
    [["stdio"], /unknown argument 'stdio'/],
    [["--config"], /--config needs a value/],
    [["--var", "NOCOLON"], /--var wants KEY:VALUE/],
    [["--tenant-host", "http://acme.localhost"], /--tenant-host wants a host name/],
    [["--path", "t/globex/mcp"], /--path wants an absolute path/],
    [["--header", "no colon"], /--header wants "Name: value"/],
    [["--max-in-flight", "0"], /--max-in-flight wants a whole number from 1 to 10000/],
    [["--max-in-flight", "1e3"], /--max-in-flight wants a whole number/],
    [["--max-in-flight=20000"], /--max-in-flight wants a whole number/],
  ])("refuses %j with a UsageError naming the problem", (args, message) => {
    expect(() => parseStdioOptions(args)).toThrow(UsageError);
    expect(() => parseStdioOptions(args)).toThrow(message);
  });
});
