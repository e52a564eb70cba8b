// Preloaded with `node --import <this file>` before the conformance suite (pinned 0.1.16).
//
// The suite's bundle does `import { globSync } from "fs"`, which only exists from Node 22;
// on Node 20 the whole CLI fails to link before any scenario runs. `globSync` is used only by
// the `tier-check` command, which we never run, so a stub is enough: hooks.mjs points the
// suite's `fs` imports at fs-shim.mjs, which re-exports the real `fs` plus that stub.
import { register } from "node:module";

register("./hooks.mjs", import.meta.url);
