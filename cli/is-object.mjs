// The one shape check the relay needs on parsed JSON.

/**
 * True for a JSON object (not null, not an array).
 * @param {unknown} value
 * @returns {value is Record<string, unknown>}
 */
export function isObject(value) {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}
