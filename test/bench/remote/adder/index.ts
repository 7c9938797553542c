/** add(a, b) as a tool service (RPC), the service-bound side of the remote-forwarding bench. */
import { createToolService } from "edge-mcp/workers";
import { add } from "../add.ts";

export const Adder = createToolService({ tools: [add] });

export default { fetch: (): Response => new Response("bind the Adder entrypoint", { status: 404 }) };
