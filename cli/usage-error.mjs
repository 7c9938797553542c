// The error of a bad command line: main prints its message and the usage, and exits 2.

/** A command-line argument edge-mcp cannot use; its message names the argument. */
export class UsageError extends Error {
  /** @param {string} message */
  constructor(message) {
    super(message);
    this.name = "UsageError";
  }
}
