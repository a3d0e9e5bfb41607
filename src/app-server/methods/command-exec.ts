/**
 * `command/exec`: one command (an argv, no shell) run under the sandbox the config (or the
 * request's `sandboxPolicy`) gives, outside any thread, as the agent's commands run (its own
 * process group, ended with codex-ts), its output buffered into the response.
 * Streaming, stdin and terminals (`tty`, `streamStdin`, `streamStdoutStderr`) are not served.
 */
import { resolve } from "node:path";
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { V2SandboxPolicy } from "../../app-server-protocol/v2.js";
import { sandboxFromV2 } from "../../app-server-protocol/convert.js";
import { commandEnvironment, runSandboxed } from "../../host/standalone.js";
import type { Method } from "../server.js";

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_OUTPUT_CAP = 1 << 20;

export const commandExec: Method = async ({ server }, params) => {
  const argv = params.array("command");
  if (argv.length === 0 || !argv.every((a) => typeof a === "string")) throw invalidRequest("Invalid request: `command` must be a non-empty list of strings");
  for (const flag of ["tty", "streamStdin", "streamStdoutStderr"]) {
    if (params.optionalBoolean(flag) === true) throw invalidRequest(`command/exec with \`${flag}\` is not supported by codex-ts app-server; output is returned when the command ends`);
  }
  if (params.has("timeoutMs") && params.optionalBoolean("disableTimeout") === true) throw invalidRequest("Invalid request: `timeoutMs` and `disableTimeout` cannot be combined");
  if (params.has("outputBytesCap") && params.optionalBoolean("disableOutputCap") === true) throw invalidRequest("Invalid request: `outputBytesCap` and `disableOutputCap` cannot be combined");
  const timeoutMs = params.optionalBoolean("disableTimeout") === true ? undefined : (params.optionalInteger("timeoutMs") ?? DEFAULT_TIMEOUT_MS);
  const cap = params.optionalBoolean("disableOutputCap") === true ? Number.MAX_SAFE_INTEGER : (params.optionalInteger("outputBytesCap", 1) ?? DEFAULT_OUTPUT_CAP);
  const cwd = resolve(params.optionalString("cwd") ?? process.cwd());
  const config = server.loadConfig({ cwd });
  const policy = params.has("sandboxPolicy") ? sandboxFromV2(params.raw("sandboxPolicy") as V2SandboxPolicy) : config.sandboxPolicy;
  const env = await commandEnvironment(config);
  for (const [key, value] of Object.entries(params.optionalObject("env") ?? {})) {
    if (value === null) delete env[key];
    else if (typeof value === "string") env[key] = value;
    else throw invalidRequest(`Invalid request: env.${key} must be a string or null`);
  }
  const ran = await runSandboxed({ ...config, sandboxPolicy: policy }, cwd, argv as string[], env, { timeoutMs, maxCaptureChars: cap });
  if ("unavailable" in ran) throw invalidRequest(`no sandbox is available here: ${ran.unavailable}`);
  return ran;
};
