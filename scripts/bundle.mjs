#!/usr/bin/env node
// Builds the shipped program into dist/bundle/ with esbuild (docs/performance.md, "The bundle").
//
// - codex-ts.cjs, the binary (package.json `bin`): src/cli/main.ts as one CommonJS file. It
//   answers `--version` and runs `apply_patch` (inlined) without Node's ES module loader.
// - Every other module main.ts imports lazily becomes an ES module entry (commands.mjs), split
//   with the rest of the program into chunks/: each command loads the chunks it reaches, and the
//   code behind a lazy import() stays in chunks loaded on use.
//
// The entries come from package.json `bin` and main.ts's own imports, not from a file list, so
// moving modules around needs no change here. tsc still type-checks and builds dist/src for the
// tests. Usage: node scripts/bundle.mjs [--metafile]  (writes dist/bundle/meta.json to inspect)
import { build } from "esbuild";
import { chmodSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { basename, join, relative, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const OUT = join(ROOT, "dist/bundle");
const pkg = JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8"));

/** The binary each `bin` entry is built from. */
const BIN_SOURCES = { "codex-ts": "src/cli/main.ts" };
/** Lazy imports of main.ts compiled into the binary itself: they must run without the ES module loader. */
const INLINE_IN_BIN = ["src/cli/apply-patch-command.ts"];
/**
 * Packages left in node_modules and loaded from there: native code (node-pty), WebAssembly found
 * next to the package's own files (tree-sitter), and the OpenTelemetry exporters with gRPC (and
 * protobufjs below them), which load optional modules by computed names and only run when [otel]
 * is set.
 */
const EXTERNAL = ["@lydell/node-pty", "web-tree-sitter", "tree-sitter-bash", "@opentelemetry/*", "@grpc/*"];

const shared = {
  bundle: true,
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  define: { CODEX_TS_BUNDLED_VERSION: JSON.stringify(pkg.version) },
  legalComments: "none",
  logLevel: "warning",
};

/** Builds the binary; returns the ES module entries its lazy imports point at (name -> source). */
async function buildBin(name, source) {
  const lazyEntries = {};
  const inline = new Set(INLINE_IN_BIN.map((p) => resolve(ROOT, p)));
  const binSource = resolve(ROOT, source);
  const inlined = new Set();
  const lazyImports = {
    name: "lazy-imports-become-entries",
    setup(b) {
      b.onResolve({ filter: /^\./ }, async (args) => {
        if (args.kind !== "dynamic-import" || args.importer !== binSource || args.pluginData === "resolving") return undefined;
        const found = await b.resolve(args.path, { kind: args.kind, resolveDir: args.resolveDir, importer: args.importer, pluginData: "resolving" });
        if (found.errors.length > 0) return { errors: found.errors };
        if (inline.has(found.path)) {
          inlined.add(found.path);
          return { path: found.path };
        }
        const entry = basename(found.path).replace(/\.[cm]?[jt]s$/, "");
        if (lazyEntries[entry] && lazyEntries[entry] !== found.path) throw new Error(`two lazy imports of ${source} are both named ${entry}`);
        lazyEntries[entry] = found.path;
        return { path: `./${entry}.mjs`, external: true };
      });
    },
  };
  failOnWarnings(await build({
    ...shared,
    entryPoints: { [name]: binSource },
    format: "cjs",
    outdir: OUT,
    outExtension: { ".js": ".cjs" },
    // CommonJS has no import.meta: modules inlined here that ask for their own URL get the file's,
    // computed when asked (--version never asks).
    banner: { js: '"use strict";\nconst __codexImportMeta = { get url() { return require("node:url").pathToFileURL(__filename).href; } };' },
    define: { ...shared.define, "import.meta.url": "__codexImportMeta.url" },
    plugins: [lazyImports],
  }));
  const missing = [...inline].filter((p) => !inlined.has(p));
  if (missing.length > 0) throw new Error(`${source} no longer imports ${missing.map((p) => relative(ROOT, p)).join(", ")}: update INLINE_IN_BIN in scripts/bundle.mjs`);
  chmodSync(join(OUT, `${name}.cjs`), 0o755);
  return lazyEntries;
}

/** A warning (an import.meta esbuild cannot fill, a require it cannot follow) is a broken build here. */
function failOnWarnings(result) {
  if (result.warnings.length > 0) throw new Error(`esbuild reported ${result.warnings.length} warning(s); see above`);
}

/** An external package is loaded from node_modules at run time: an install must bring it. */
function checkExternalsAreDependencies() {
  const deps = Object.keys(pkg.dependencies ?? {});
  const missing = EXTERNAL.filter((spec) => {
    const name = spec.startsWith("@") ? spec.split("/").slice(0, 2).join("/") : spec.split("/")[0];
    return name.endsWith("/*") ? !deps.some((d) => d.startsWith(name.slice(0, -1))) : !deps.includes(name);
  });
  if (missing.length > 0) throw new Error(`external packages that are not dependencies in package.json: ${missing.join(", ")}`);
}

async function main() {
  const metafile = process.argv.includes("--metafile");
  checkExternalsAreDependencies();
  rmSync(OUT, { recursive: true, force: true });
  const lazyEntries = {};
  for (const [name, target] of Object.entries(pkg.bin)) {
    if (!BIN_SOURCES[name]) throw new Error(`package.json bin ${name} has no source in BIN_SOURCES (scripts/bundle.mjs)`);
    if (target !== relative(ROOT, join(OUT, `${name}.cjs`))) throw new Error(`package.json bin ${name} must be dist/bundle/${name}.cjs, not ${target}`);
    Object.assign(lazyEntries, await buildBin(name, BIN_SOURCES[name]));
  }
  const result = await build({
    ...shared,
    entryPoints: lazyEntries,
    format: "esm",
    splitting: true,
    outdir: OUT,
    outExtension: { ".js": ".mjs" },
    chunkNames: "chunks/[name]-[hash]",
    // Bundled CommonJS packages (commander, …) call require() for Node's own modules. It is made
    // on first use: createRequire in each of the ~30 chunks a command loads cost 3 ms per run.
    banner: { js: 'import { createRequire as __codexCreateRequire } from "node:module";\nlet __codexRequire;\nfunction require(id) {\n  return (__codexRequire ??= __codexCreateRequire(import.meta.url))(id);\n}' },
    metafile,
  });
  failOnWarnings(result);
  if (metafile) writeFileSync(join(OUT, "meta.json"), JSON.stringify(result.metafile));
}

await main();
