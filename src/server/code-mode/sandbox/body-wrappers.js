// @ts-check
/* global Blob -- a sandbox global (workerd) */
/** Sandbox JavaScript: the allocation budget's wrappers of bodies (`Response`, `Request`) and its refusal of compression streams. */

/**
 * @param {import("./allocation-budget.js").BudgetKit} kit what installAllocationBudget took before the program could
 * replace anything, and its charge
 */
export function installBodyWrappers(kit) {
  const { constructorOf, maxBytes, isObject, bufferBytes, getOwn, apply } = kit;
  // A whole budget and one byte: the call that asks for it throws the LimitError, as any charge past the limit does.
  const refused = (args) => ({ bytes: maxBytes + 1, args });
  // A (de)compression stream turns a few bytes into many the budget cannot see (a 130 KB gzip bomb is 128 MiB): refused.
  for (const name of ["DecompressionStream", "CompressionStream"]) constructorOf(globalThis, name, refused);
  const blobSize = typeof Blob === "function" && getOwn(Blob.prototype, "size") ? getOwn(Blob.prototype, "size").get : undefined;
  // A body's bytes, read once; -1 for a body the budget cannot size (a stream, form data, an object converted to text).
  const sizeOf = (body) => {
    if (body === undefined || body === null) return 0;
    if (typeof body === "string") return body.length * 2;
    if (!isObject(body)) return -1;
    const bytes = bufferBytes(body);
    if (bytes >= 0) return bytes;
    try {
      return blobSize ? apply(blobSize, body, []) : -1;
    } catch {
      return -1;
    }
  };
  // Each reading of a body (text, json, arrayBuffer…) copies it: charged three times over, when the body is made.
  if (typeof Response === "function") {
    constructorOf(globalThis, "Response", (args) => {
      const bytes = sizeOf(args[0]);
      return bytes < 0 ? refused(args) : { bytes: bytes * 3, args };
    });
  }
  // A request is made by the program only to read its own body back: a body makes it refused.
  if (typeof Request === "function") {
    constructorOf(globalThis, "Request", (args) => {
      // The init is read once, into a copy the constructor gets: a getter cannot show no body here and a stream there.
      const init = isObject(args[1]) ? { ...args[1] } : args[1];
      const withBody = typeof args[0] !== "string" || (isObject(init) && init.body !== undefined && init.body !== null);
      return withBody ? refused(args) : { bytes: 0, args: init === undefined ? [args[0]] : [args[0], init] };
    });
  }
}
