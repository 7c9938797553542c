/** The MCP server: `npm run dev` serves it at http://127.0.0.1:8787/mcp. */

import { createWorker } from "edge-mcp/workers";
import { convertTemperature, greet, note } from "./tools";

export default createWorker({
  info: { name: "{{name}}", version: "0.1.0" },
  instructions: "greet says hello; convert_temperature converts between Celsius and Fahrenheit; note saves and reads notes.",
  tools: [greet, convertTemperature, note],
});
