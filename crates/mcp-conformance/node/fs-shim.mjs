// The real `fs` module plus a `globSync` stub (see register.mjs for why).
import fs from "node:fs";

export * from "node:fs";
export default fs;

// Node 22's fs.globSync; the suite only calls it from `tier-check`, which we do not run.
// Use the real one when this Node has it, otherwise fail loudly rather than return nothing.
export const globSync =
  fs.globSync ??
  function globSync() {
    throw new Error("fs.globSync needs Node 22; not available in this Node");
  };
