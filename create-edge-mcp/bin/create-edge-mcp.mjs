#!/usr/bin/env node
// `npm create edge-mcp@latest [directory] -- [--template NAME] [--name NAME]`: makes a new edge-mcp project.

import { main } from "../lib/main.mjs";

process.exitCode = await main(process.argv.slice(2));
