// Module resolution hook (node:module `register`), loaded by register.mjs.
//
// Only imports of `fs` / `node:fs` made by the conformance suite's own files are rewritten;
// every other module (including the shim itself, and all of node_modules' dependencies)
// resolves as usual.
const SHIM = new URL("./fs-shim.mjs", import.meta.url).href;
const SUITE = "/node_modules/@modelcontextprotocol/conformance/";

export async function resolve(specifier, context, nextResolve) {
  if (
    (specifier === "fs" || specifier === "node:fs") &&
    context.parentURL?.includes(SUITE)
  ) {
    return { url: SHIM, shortCircuit: true };
  }
  return nextResolve(specifier, context);
}
