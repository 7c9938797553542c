/** An error a tool handler throws for the model to read: its message is the tool's answer. */

/**
 * Throw it from a tool handler to answer the call with an `isError` result whose text is this
 * message (what the model reads to try something else). Any other error a handler throws is
 * logged with a correlation id and its stack, and the model sees only "Tool X failed (id …)",
 * since its message may hold anything (a connection string, a password); under development
 * (`MCP_DEV = "true"`, or `development: true`) the model sees its message too.
 *
 * @example
 * if (!note) throw new ToolError(`There is no note named ${name}; list the notes first.`);
 */
export class ToolError extends Error {
  override readonly name: string = "ToolError";
  readonly code: string = "ERR_TOOL";
}
