/**
 * A bash parser shared by the whole process, built on tree-sitter compiled to WebAssembly.
 *
 * Loading the runtime and the bash grammar costs tens of milliseconds, so nothing happens at
 * import time: the first call to {@link withBashTree} loads them, and every later call reuses
 * the same parser. Concurrent first calls share one load.
 *
 * Memory: tree-sitter trees live on the wasm heap and must be freed explicitly. To make leaks
 * impossible, callers never get a `Tree`; they pass a callback that inspects the root node and
 * returns plain data, and the tree is deleted as soon as the callback returns (or throws).
 * Nodes must therefore not escape the callback, and the callback must be synchronous.
 *
 * The module knows nothing about what the scripts mean; recognisers (apply_patch invocations,
 * safe-command classification) build on it.
 */
import { setFlagsFromString } from "node:v8";
import { createRequire } from "node:module";
import type { Node, Parser } from "web-tree-sitter";

export type { Node, Tree } from "web-tree-sitter";

let parserPromise: Promise<Parser> | null = null;
let loads = 0;

/** Loads the wasm runtime and the grammar once; a failed load is retried on the next call. */
function bashParser(): Promise<Parser> {
  parserPromise ??= createParser().catch((error: unknown) => {
    parserPromise = null;
    throw error;
  });
  return parserPromise;
}

async function createParser(): Promise<Parser> {
  // V8 would otherwise recompile the grammar with its optimising tier on background threads,
  // and Node's event loop waits for those threads: about a second of frozen timers and I/O on
  // a two-core machine. The baseline compiler parses our short scripts fast enough.
  setFlagsFromString("--liftoff-only");
  // Loaded here, not at import, so commands that never parse a script do not pay for it.
  const { Language, Parser } = await import("web-tree-sitter");
  await Parser.init();
  const grammarPath = createRequire(import.meta.url).resolve("tree-sitter-bash/tree-sitter-bash.wasm");
  const language = await Language.load(grammarPath);
  const parser = new Parser();
  parser.setLanguage(language);
  loads += 1;
  return parser;
}

/** How many times the grammar has been loaded: 0 before first use, then 1 (for tests). */
export function bashParserLoads(): number {
  return loads;
}

/**
 * Parses `script` as bash and returns what `inspect` computes from the root node, or null when
 * tree-sitter produced no tree. A tree with syntax errors is still passed on: callers that need
 * a clean parse check `root.hasError`. Throws only if the grammar cannot be loaded at all.
 */
export async function withBashTree<T>(script: string, inspect: (root: Node) => T): Promise<T | null> {
  const parser = await bashParser();
  const tree = parser.parse(script);
  if (tree === null) return null;
  try {
    return inspect(tree.rootNode);
  } finally {
    tree.delete();
  }
}
