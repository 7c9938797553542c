/**
 * Bench scale Worker: TOOL_COUNT tools in one registry (a build-time constant, `--define TOOL_COUNT:<n>`),
 * with tool search on (its three tools come first in tools/list), served by the runtime's public
 * Worker entry. See ../../README.md, "Scale runs".
 */

import { toolSearch } from "../../../../src/index.ts";
import { createWorker } from "../../../../src/workers/index.ts";
import { scaleTools } from "./tools.ts";

declare const TOOL_COUNT: number;

export default createWorker({
  info: { name: "edge-mcp-bench-scale", version: "0.0.0" },
  tools: scaleTools(TOOL_COUNT),
  toolSearch: toolSearch(),
});
