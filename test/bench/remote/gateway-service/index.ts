/** The gateway that reaches add(a, b) of a tool service bound as ADDER as up_add: toolServices(). */
import { createWorker, toolServices } from "edge-mcp/workers";

export default createWorker(
  { info: { name: "bench-gateway-service", version: "1.0.0" }, tools: [] },
  { services: toolServices([{ binding: "ADDER", prefix: "up" }]) },
);
