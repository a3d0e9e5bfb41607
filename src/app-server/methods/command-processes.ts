/**
 * `command/exec` with a client-supplied `processId`: a command the client talks to while it runs.
 * Its output streams as `command/exec/outputDelta` (base64, each stream cut at `outputBytesCap`
 * bytes with `capReached` on its last chunk) or is buffered into the response; stdin is written
 * with `command/exec/write` (`streamStdin`, or `tty`, which implies both streams); a PTY is
 * resized with `command/exec/resize`; `command/exec/terminate` ends it. Process ids belong to the
 * client's connection, and a client that goes away takes its commands with it. The response
 * comes when the command has exited and its output is in, after its last delta.
 */
import { ERROR_CODES, invalidRequest, RpcError } from "../../app-server-protocol/jsonrpc.js";
import type { Config } from "../../config/load-config.js";
import { startSandboxed, type ExecProcess } from "../../host/standalone.js";
import type { Connection } from "../connection.js";
import type { Params } from "../params.js";
import type { Method } from "../server.js";

export interface ProcessRequest {
  processId: string;
  config: Config;
  cwd: string;
  argv: string[];
  env: Record<string, string>;
  tty: boolean;
  size: { cols: number; rows: number } | undefined;
  streamOutput: boolean;
  /** Bytes kept (or streamed) per stream. */
  cap: number;
  timeoutMs: number | undefined;
}

interface Running {
  /** Null while it is being started. */
  process: ExecProcess | null;
  /** Asked to end (perhaps before it had started). */
  ended: boolean;
  tty: boolean;
  streamStdin: boolean;
}

function end(entry: Running): void {
  entry.ended = true;
  entry.process?.terminate();
}

const TIMEOUT_EXIT_CODE = 124;
const running = new WeakMap<Connection, Map<string, Running>>();

function processesOf(connection: Connection): Map<string, Running> {
  let map = running.get(connection);
  if (!map) running.set(connection, (map = new Map()));
  return map;
}

/** Ends every command a client started (it disconnected). */
export function endProcessesOf(connection: Connection): void {
  for (const entry of running.get(connection)?.values() ?? []) end(entry);
  running.delete(connection);
}

/** One stream's bytes: streamed or kept, never past the cap. */
class StreamOut {
  private kept: Buffer[] = [];
  private used = 0;
  /** The client has been told the cap cut this stream. */
  private toldCapped = false;

  constructor(
    private readonly cap: number,
    private readonly send: ((chunk: Buffer, capReached: boolean) => void) | null,
  ) {}

  take(chunk: Buffer): void {
    const room = this.cap - this.used;
    if (room <= 0) {
      // Output past a cap the last chunk filled exactly: say so once, with nothing more.
      if (this.send && !this.toldCapped && chunk.length > 0) this.send(Buffer.alloc(0), (this.toldCapped = true));
      return;
    }
    const part = chunk.length > room ? chunk.subarray(0, room) : chunk;
    this.used += part.length;
    this.toldCapped = chunk.length > room;
    if (this.send) this.send(part, this.toldCapped);
    else this.kept.push(part);
  }

  text(): string {
    return Buffer.concat(this.kept).toString("utf8");
  }
}

/**
 * Claims `processId` on the client's connection as the request arrives, before anything is
 * awaited, so a write or terminate sent right behind it finds it (still starting); `release`
 * gives it back when the command never starts.
 */
export function reserveProcess(connection: Connection, processId: string, how: { tty: boolean; streamStdin: boolean }): { release: () => void } {
  const processes = processesOf(connection);
  if (processes.has(processId)) throw invalidRequest(`duplicate active command/exec process id: ${JSON.stringify(processId)}`);
  const entry: Running = { process: null, ended: false, ...how };
  processes.set(processId, entry);
  return { release: () => processes.get(processId) === entry && processes.delete(processId) };
}

export async function runProcess(connection: Connection, req: ProcessRequest): Promise<{ exitCode: number; stdout: string; stderr: string }> {
  const processes = processesOf(connection);
  const entry = processes.get(req.processId);
  if (!entry) throw invalidRequest(`no active command/exec for process id ${JSON.stringify(req.processId)}`);
  const stream = (name: "stdout" | "stderr"): StreamOut =>
    new StreamOut(req.cap, req.streamOutput ? (chunk, capReached) => connection.notify("command/exec/outputDelta", { processId: req.processId, stream: name, deltaBase64: chunk.toString("base64"), capReached }) : null);
  const out = { stdout: stream("stdout"), stderr: stream("stderr") };
  let settle: () => void = () => undefined;
  const finished = new Promise<void>((resolve) => (settle = resolve));
  // Done once it has exited and its output is in (either may come first).
  const settleIfDone = (): void => {
    if (entry.process?.hasExited && entry.process.outputClosed) settle();
  };
  let started: ExecProcess | { unavailable: string };
  try {
    started = await startSandboxed(req.config, req.cwd, req.argv, req.env, {
      tty: req.tty,
      ...(req.size ? { size: req.size } : {}),
      onOutput: (name, chunk) => out[name].take(chunk),
      onStateChange: () => settleIfDone(),
    });
  } catch (err) {
    processes.delete(req.processId);
    throw invalidRequest(`command/exec could not start ${req.argv[0] ?? ""}: ${(err as Error).message}`);
  }
  if ("unavailable" in started) {
    processes.delete(req.processId);
    throw invalidRequest(`no sandbox is available here: ${started.unavailable}`);
  }
  const proc = started;
  entry.process = proc;
  settleIfDone();
  if (entry.ended) proc.terminate();
  // Input nobody may write: end of file at once, as the agent's commands get (a tool waiting on stdin would hang).
  if (!entry.streamStdin) proc.closeStdin();
  let timedOut = false;
  const timer = req.timeoutMs === undefined ? undefined : setTimeout(() => ((timedOut = true), proc.terminate()), req.timeoutMs);
  try {
    await finished;
  } finally {
    clearTimeout(timer);
    processes.delete(req.processId);
  }
  return { exitCode: timedOut ? TIMEOUT_EXIT_CODE : (proc.exitCode ?? -1), stdout: out.stdout.text(), stderr: out.stderr.text() };
}

function find(connection: Connection, params: Params): Running {
  const processId = params.string("processId");
  const found = running.get(connection)?.get(processId);
  if (!found) throw invalidRequest(`no active command/exec for process id ${JSON.stringify(processId)}`);
  return found;
}

/** The running process a write or resize goes to. */
function started(connection: Connection, params: Params): Running & { process: ExecProcess } {
  const found = find(connection, params);
  if (found.process === null) throw invalidRequest(`command/exec process ${JSON.stringify(params.string("processId"))} is still starting`);
  return found as Running & { process: ExecProcess };
}

/** A terminal size from the request (`{cols, rows}`, each 1 … 65535). */
export function terminalSize(params: Params, key: string): { cols: number; rows: number } | undefined {
  const raw = params.optionalObject(key);
  if (raw === undefined) return undefined;
  const fit = (n: unknown): n is number => typeof n === "number" && Number.isInteger(n) && n > 0 && n <= 0xffff;
  if (!fit(raw.cols) || !fit(raw.rows)) throw new RpcError(ERROR_CODES.invalidParams, `Invalid params: \`${key}\` needs whole \`cols\` and \`rows\` between 1 and 65535`);
  return { cols: raw.cols, rows: raw.rows };
}

const write: Method = async ({ connection }, params) => {
  const target = started(connection, params);
  if (!target.streamStdin) throw invalidRequest(`command/exec process ${JSON.stringify(params.string("processId"))} was started without streamStdin`);
  const data = params.optionalString("deltaBase64");
  if (data !== undefined) {
    if (!/^[A-Za-z0-9+/]*={0,2}$/.test(data)) throw invalidRequest("Invalid request: `deltaBase64` is not base64");
    await target.process.write(Buffer.from(data, "base64"));
  }
  if (params.optionalBoolean("closeStdin") === true) target.process.closeStdin();
  return {};
};

const terminate: Method = ({ connection }, params) => {
  end(find(connection, params));
  return Promise.resolve({});
};

const resize: Method = ({ connection }, params) => {
  const target = started(connection, params);
  const size = terminalSize(params, "size");
  if (size === undefined) throw invalidRequest("Invalid request: missing field `size`");
  if (!target.tty) throw invalidRequest(`command/exec process ${JSON.stringify(params.string("processId"))} has no terminal (started without tty)`);
  target.process.resize(size.cols, size.rows);
  return Promise.resolve({});
};

export const processMethods: Readonly<Record<string, Method>> = {
  "command/exec/write": write,
  "command/exec/terminate": terminate,
  "command/exec/resize": resize,
};
