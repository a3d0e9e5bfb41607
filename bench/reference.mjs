/** Shared by the benchmarks: finding the reference (Codex CLI) to run beside codex-ts. */
import { closeSync, existsSync, openSync, readSync, realpathSync } from "node:fs";
import { createRequire } from "node:module";
import { delimiter, dirname, join, resolve } from "node:path";

/** Where the project's machine keeps the reference's npm install (never a project dependency). */
const INSTALLED_LAUNCHER = "/work/ref/node_modules/.bin/codex";

/**
 * The reference's native binary, from CODEX_REF_BIN, the machine's install or `codex` on PATH,
 * or null. The npm launcher is a Node script that spawns the native binary from its platform
 * package; benchmarks run the binary itself so that Node's start-up is not counted twice.
 */
export function findReference() {
  const given = process.env.CODEX_REF_BIN;
  const launcher = given ? resolve(given) : existsSync(INSTALLED_LAUNCHER) ? INSTALLED_LAUNCHER : onPath("codex");
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

/**
 * A config.toml for the reference that points it at a scripted model server, with its network
 * extras (analytics, plugins) off so that it works offline; `extra` lines are appended.
 */
export function referenceConfig(serverUrl, model, extra = []) {
  return [
    `model = "${model}"`,
    'model_provider = "bench"',
    ...extra,
    "[analytics]",
    "enabled = false",
    "[features]",
    "plugins = false",
    "[model_providers.bench]",
    'name = "bench"',
    `base_url = "${serverUrl}"`,
    'wire_api = "responses"',
    'env_key = "OPENAI_API_KEY"',
    "",
  ].join("\n");
}
