/** The internal error raised when a server, tool or option is declared wrongly (never sent on the wire). */

export class DefinitionError extends Error {
  override readonly name = "DefinitionError";
  readonly code = "ERR_INVALID_DEFINITION";

  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
  }
}
