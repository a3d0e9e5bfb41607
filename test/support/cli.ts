/**
 * Runs the real codex-ts CLI as a child process for end-to-end tests: a temporary git
 * repository as the workspace, a temporary CODEX_HOME, a fake API key, and the scripted model
 * server as the provider. Nothing here talks to anything but 127.0.0.1.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdtempSync, mkdirSync, readdirSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { dirname, join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import assert from "node:assert/strict";
import { startModelServer, type ModelServer, type ScriptedTurn } from "./model-server.js";

const TSC_CLI = fileURLToPath(new URL("../../src/cli/main.js", import.meta.url));
/**
 * The CLI the tests run: the tsc build's entry (dist/src/cli/main.js), or the program named by
 * CODEX_TS_TEST_CLI, e.g. the bundle users get (dist/bundle/codex-ts.cjs), to run the suite
 * against it.
 */
export const CLI_PATH = process.env.CODEX_TS_TEST_CLI ? resolve(process.env.CODEX_TS_TEST_CLI) : TSC_CLI;
/** Why a test that reads the tsc build's module files cannot run against another CLI; false when it can. */
export const NEEDS_TSC_BUILD: string | false = CLI_PATH === TSC_CLI ? false : "checks which module files of the tsc build load (CODEX_TS_TEST_CLI names another CLI)";

export interface Workspace {
  /** A fresh git repository to run in. */
  dir: string;
  /** A fresh CODEX_HOME. */
  home: string;
}

export function makeWorkspace(options: { git?: boolean; config?: string } = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), "codex-ts-test-"));
  const dir = join(root, "work");
  const home = join(root, "home");
  mkdirSync(dir);
  mkdirSync(home);
  if (options.git !== false) mkdirSync(join(dir, ".git"));
  if (options.config) writeFileSync(join(home, "config.toml"), options.config);
  return { dir, home };
}

/**
 * A test of what happens outside a Git repository means nothing when a `.git` above the
 * temporary folder makes every folder below it part of one (exec looks for `.git` upwards, as
 * the reference does). Such a `.git` in `/tmp` is litter, so say where it comes from rather than
 * fail on a confusing assertion.
 */
export function assertNoRepositoryAbove(dir: string): void {
  for (let d = dirname(dir); ; d = dirname(d)) {
    if (existsSync(join(d, ".git"))) {
      throw new Error(
        `${join(d, ".git")} exists, so ${dir} is inside a Git repository and this test cannot run. ` +
          "An empty .git there is usually left behind by the reference Codex CLI, which makes empty .git, .codex, .agents and .aws " +
          "folders as mount points in its writable roots (/tmp included) and removes them only when it exits normally; remove them, " +
          "and run the reference with -s danger-full-access or -c sandbox_workspace_write.exclude_slash_tmp=true.",
      );
    }
    if (dirname(d) === d) return;
  }
}

/** Every file under `dir`, at any depth (to check that no secret was written anywhere). */
export function filesUnder(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile())
    .map((e) => join(e.parentPath, e.name));
}

export interface CliResult {
  code: number | null;
  stdout: string;
  stderr: string;
}

export interface RunOptions {
  cwd: string;
  home: string;
  stdin?: string;
  env?: Record<string, string | undefined>;
  /** Another codex-ts program to run instead of CLI_PATH (an installed package's binary). */
  cli?: string;
  /** Called once the child is running, e.g. to send it a signal. */
  onSpawn?: (child: ChildProcess) => void;
  timeoutMs?: number;
}

/** The environment a test CLI run gets: the parent's, minus real keys, plus test settings. */
export function testEnv(home: string, extra: Record<string, string | undefined> = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, CODEX_HOME: home, OPENAI_API_KEY: "sk-test-key", NO_COLOR: "1" };
  delete env.CODEX_API_KEY;
  delete env.OPENAI_BASE_URL;
  for (const [k, v] of Object.entries(extra)) {
    if (v === undefined) delete env[k];
    else env[k] = v;
  }
  return env;
}

export function runCli(args: string[], opts: RunOptions): Promise<CliResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [opts.cli ?? CLI_PATH, ...args], {
      cwd: opts.cwd,
      env: testEnv(opts.home, opts.env),
      stdio: ["pipe", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => {
      child.kill("SIGKILL");
      reject(new Error(`codex-ts ${args.join(" ")} timed out\nstdout: ${stdout}\nstderr: ${stderr}`));
    }, opts.timeoutMs ?? 20_000);
    child.on("error", reject);
    child.on("close", (code) => {
      clearTimeout(timer);
      resolve({ code, stdout, stderr });
    });
    child.stdin.end(opts.stdin ?? "");
    opts.onSpawn?.(child);
  });
}

/** `-c openai_base_url=…` pointing the built-in provider at the scripted server. */
export function baseUrlArgs(url: string): string[] {
  return ["-c", `openai_base_url="${url}"`];
}

/**
 * The interactive UI against the scripted server, in a folder whose trust is not asked about:
 * the permissions are chosen (read-only, the untrusted default), as a user passing `-s` does.
 */
export function tuiArgs(url: string): string[] {
  return [...baseUrlArgs(url), "-s", "read-only"];
}

/** Parses exec --json stdout into its events. */
export function jsonLines(stdout: string): Array<Record<string, unknown>> {
  return stdout
    .split("\n")
    .filter((l) => l.trim())
    .map((l) => JSON.parse(l) as Record<string, unknown>);
}

/** Runs `body` against a scripted model server, then checks the server saw no protocol violations. */
export async function withServer(turns: ScriptedTurn[], body: (server: ModelServer) => Promise<void>): Promise<void> {
  const server = await startModelServer(turns);
  try {
    await body(server);
    assert.deepEqual(server.violations, []);
  } finally {
    await server.close();
  }
}

/** `codex-ts exec ARGS` with the built-in provider pointed at the scripted server. */
export function exec(server: ModelServer, args: string[], opts: RunOptions): Promise<CliResult> {
  return runCli(["exec", ...baseUrlArgs(server.url), ...args], opts);
}
