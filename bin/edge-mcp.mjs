#!/usr/bin/env node
// The edge-mcp command line (package bin). Plain ESM JavaScript: it runs without a build step.

import { main } from "../cli/main.mjs";

const code = await main(process.argv.slice(2));
// Exit once stdout has taken everything written to it: a pipe to the host may still be draining,
// and lingering handles (sockets of a stopped miniflare) must not keep the process alive.
process.stdout.write("", () => process.exit(code));
