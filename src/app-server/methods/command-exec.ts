/**
 * `command/exec`: one command (an argv, no shell) run under the sandbox the config (or the
 * request's `sandboxPolicy`) gives, outside any thread, as the agent's commands run (its own
 * process group, ended with codex-ts). Without a `processId` its output is buffered into the
 * response (each stream's head and tail past the cap); with one it is a command the client talks
 * to while it runs (streamed output, stdin, a terminal, terminate): command-processes.ts.
 */
import { resolve } from "node:path";
import { ERROR_CODES, invalidRequest, RpcError } from "../../app-server-protocol/jsonrpc.js";
import type { V2SandboxPolicy } from "../../app-server-protocol/v2.js";
import { sandboxFromV2 } from "../../app-server-protocol/convert.js";
import { commandEnvironment, runSandboxed } from "../../host/standalone.js";
import type { Connection } from "../connection.js";
import type { Params } from "../params.js";
import type { AppServer, Method } from "../server.js";
import { reserveProcess, runProcess, terminalSize } from "./command-processes.js";

const DEFAULT_TIMEOUT_MS = 10_000;
const DEFAULT_OUTPUT_CAP = 1 << 20;

interface Shape {
  argv: string[];
  processId: string | undefined;
  tty: boolean;
  streamStdin: boolean;
  streamOutput: boolean;
  size: { cols: number; rows: number } | undefined;
}

export const commandExec: Method = async ({ server, connection }, params) => {
  const argv = params.array("command");
  if (argv.length === 0 || !argv.every((a) => typeof a === "string")) throw invalidRequest("Invalid request: `command` must be a non-empty list of strings");
  const processId = params.optionalString("processId");
  const tty = params.optionalBoolean("tty") === true;
  // A terminal is both streamed ways, as the reference's.
  const shape: Shape = { argv: argv as string[], processId, tty, streamStdin: tty || params.optionalBoolean("streamStdin") === true, streamOutput: tty || params.optionalBoolean("streamStdoutStderr") === true, size: terminalSize(params, "size") };
  if ((shape.streamStdin || shape.streamOutput) && processId === undefined) throw invalidRequest("command/exec tty or streaming requires a client-supplied processId");
  if (shape.size !== undefined && !tty) throw new RpcError(ERROR_CODES.invalidParams, "command/exec size requires tty: true");
  // The id is the client's from this moment: a write or terminate right behind finds it.
  const reserved = processId === undefined ? null : reserveProcess(connection, processId, { tty, streamStdin: shape.streamStdin });
  try {
    return await execute(server, connection, params, shape);
  } finally {
    reserved?.release();
  }
};

async function execute(server: AppServer, connection: Connection, params: Params, shape: Shape): Promise<unknown> {
  if (params.has("timeoutMs") && params.optionalBoolean("disableTimeout") === true) throw invalidRequest("Invalid request: `timeoutMs` and `disableTimeout` cannot be combined");
  if (params.has("outputBytesCap") && params.optionalBoolean("disableOutputCap") === true) throw invalidRequest("Invalid request: `outputBytesCap` and `disableOutputCap` cannot be combined");
  const timeoutMs = params.optionalBoolean("disableTimeout") === true ? undefined : (params.optionalInteger("timeoutMs") ?? DEFAULT_TIMEOUT_MS);
  const cap = params.optionalBoolean("disableOutputCap") === true ? Number.MAX_SAFE_INTEGER : (params.optionalInteger("outputBytesCap", 1) ?? DEFAULT_OUTPUT_CAP);
  const cwd = resolve(params.optionalString("cwd") ?? process.cwd());
  const loaded = server.loadConfig({ cwd });
  const config = params.has("sandboxPolicy") ? { ...loaded, sandboxPolicy: sandboxFromV2(params.raw("sandboxPolicy") as V2SandboxPolicy) } : loaded;
  const env = await commandEnvironment(config);
  for (const [key, value] of Object.entries(params.optionalObject("env") ?? {})) {
    if (value === null) delete env[key];
    else if (typeof value === "string") env[key] = value;
    else throw invalidRequest(`Invalid request: env.${key} must be a string or null`);
  }
  if (shape.processId !== undefined) {
    return runProcess(connection, { ...shape, processId: shape.processId, config, cwd, env, cap, timeoutMs });
  }
  const ran = await runSandboxed(config, cwd, shape.argv, env, { timeoutMs, maxCaptureChars: cap });
  if ("unavailable" in ran) throw invalidRequest(`no sandbox is available here: ${ran.unavailable}`);
  return ran;
}
