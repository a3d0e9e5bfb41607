/**
 * `command/exec`: one command (an argv, no shell) run under the sandbox the config (or the
 * request's `sandboxPolicy`) gives, outside any thread, its output buffered into the response.
 * Streaming, stdin and terminals (`tty`, `streamStdin`, `streamStdoutStderr`) are not served.
 */
import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { V2SandboxPolicy } from "../../app-server-protocol/v2.js";
import { sandboxFromV2 } from "../../app-server-protocol/convert.js";
import { commandEnvironment, sandboxed } from "../../host/standalone.js";
import type { Method } from "../server.js";

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_OUTPUT_CAP = 1 << 20;
/** The exit code reported for a command stopped at its timeout, as `timeout(1)` reports it. */
const TIMED_OUT = 124;

/** Collects a stream's bytes up to `cap` (null: all). */
class Capture {
  private readonly chunks: Buffer[] = [];
  private size = 0;

  constructor(private readonly cap: number | null) {}

  add(chunk: Buffer): void {
    if (this.cap !== null && this.size >= this.cap) return;
    const room = this.cap === null ? chunk.length : this.cap - this.size;
    const kept = chunk.subarray(0, room);
    this.chunks.push(kept);
    this.size += kept.length;
  }

  text(): string {
    return Buffer.concat(this.chunks).toString("utf8");
  }
}

export const commandExec: Method = async ({ server }, params) => {
  const argv = params.array("command");
  if (argv.length === 0 || !argv.every((a) => typeof a === "string")) throw invalidRequest("Invalid request: `command` must be a non-empty list of strings");
  for (const flag of ["tty", "streamStdin", "streamStdoutStderr"]) {
    if (params.optionalBoolean(flag) === true) throw invalidRequest(`command/exec with \`${flag}\` is not supported by codex-ts app-server; output is returned when the command ends`);
  }
  if (params.has("timeoutMs") && params.optionalBoolean("disableTimeout") === true) throw invalidRequest("Invalid request: `timeoutMs` and `disableTimeout` cannot be combined");
  if (params.has("outputBytesCap") && params.optionalBoolean("disableOutputCap") === true) throw invalidRequest("Invalid request: `outputBytesCap` and `disableOutputCap` cannot be combined");
  const timeoutMs = params.optionalBoolean("disableTimeout") === true ? null : (params.optionalInteger("timeoutMs") ?? DEFAULT_TIMEOUT_MS);
  const cap = params.optionalBoolean("disableOutputCap") === true ? null : (params.optionalInteger("outputBytesCap") ?? DEFAULT_OUTPUT_CAP);
  const cwd = resolve(params.optionalString("cwd") ?? process.cwd());
  const config = server.loadConfig({ cwd });
  const policy = params.has("sandboxPolicy") ? sandboxFromV2(params.raw("sandboxPolicy") as V2SandboxPolicy) : config.sandboxPolicy;
  const env = await commandEnvironment(config);
  for (const [key, value] of Object.entries(params.optionalObject("env") ?? {})) {
    if (value === null) delete env[key];
    else if (typeof value === "string") env[key] = value;
    else throw invalidRequest(`Invalid request: env.${key} must be a string or null`);
  }
  const command = await sandboxed({ ...config, sandboxPolicy: policy }, cwd, argv as string[], env, false);
  if ("unavailable" in command) throw invalidRequest(`no sandbox is available here: ${command.unavailable}`);
  const [program = "", ...args] = command.argv;
  const stdout = new Capture(cap);
  const stderr = new Capture(cap);
  const exitCode = await new Promise<number>((done, fail) => {
    const child = spawn(program, args, { cwd, env: command.env, stdio: ["ignore", "pipe", "pipe"], detached: true });
    let timedOut = false;
    const timer = timeoutMs === null ? null : setTimeout(() => {
      timedOut = true;
      if (child.pid !== undefined) process.kill(-child.pid, "SIGKILL");
    }, timeoutMs);
    child.stdout.on("data", (chunk: Buffer) => stdout.add(chunk));
    child.stderr.on("data", (chunk: Buffer) => stderr.add(chunk));
    child.on("error", (err) => {
      if (timer) clearTimeout(timer);
      fail(invalidRequest(`could not run ${String(argv[0])}: ${err.message}`));
    });
    child.on("close", (code, signal) => {
      if (timer) clearTimeout(timer);
      done(timedOut ? TIMED_OUT : (code ?? 128 + (signal === "SIGKILL" ? 9 : 15)));
    });
  });
  return { exitCode, stdout: stdout.text(), stderr: stderr.text() };
};
