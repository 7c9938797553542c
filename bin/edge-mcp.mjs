#!/usr/bin/env node
// The edge-mcp command line (package bin). Plain ESM JavaScript: it runs without a build step.

import { main } from "../cli/main.mjs";

const code = await main(process.argv.slice(2));
// Exit once what was written has been handed over (a pipe may take writes asynchronously), without
// waiting for lingering handles (sockets of a stopped miniflare) to close on their own.
process.stdout.write("", () => process.exit(code));
