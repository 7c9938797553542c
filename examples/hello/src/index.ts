/** The demo Worker: `npm run dev` serves it at http://127.0.0.1:8787/mcp. */

import { createWorker } from "../../../src/workers/index.ts";
import { add, countdown, echo } from "./tools.ts";

export default createWorker({
  info: { name: "edge-mcp-demo", title: "edge-mcp demo", version: "0.1.0" },
  instructions: "Demo tools: echo returns text, add sums two numbers, countdown streams progress.",
  tools: [echo, add, countdown],
});
