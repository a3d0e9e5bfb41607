/**
 * Running git for snapshots: one child process per call, output as bytes, a time limit, and an
 * environment that never asks anything, never takes the repository's optional locks (so a
 * snapshot never rewrites the user's index to refresh it) and never inherits index or object
 * overrides from the user's shell: each call sets the ones it means.
 */
import { spawn } from "node:child_process";

/** A snapshot that takes this long is given up (a home folder under git with millions of files). */
export const GIT_TIMEOUT_MS = 20_000;

export class GitError extends Error {
  constructor(
    message: string,
    readonly exitCode: number | null,
  ) {
    super(message);
    this.name = "GitError";
  }
}

export interface GitCall {
  args: readonly string[];
  cwd: string;
  /** Variables set for this call on top of the cleaned environment. */
  env?: Record<string, string>;
  input?: string | Buffer;
  timeoutMs?: number;
}

/** Variables of the user's shell that would point git somewhere else than a call means. */
const DROPPED = ["GIT_INDEX_FILE", "GIT_OBJECT_DIRECTORY", "GIT_ALTERNATE_OBJECT_DIRECTORIES", "GIT_WORK_TREE", "GIT_LITERAL_PATHSPECS", "GIT_GLOB_PATHSPECS", "GIT_NOGLOB_PATHSPECS", "GIT_ICASE_PATHSPECS"];

function gitEnv(extra: Record<string, string> | undefined): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const name of DROPPED) delete env[name];
  return { ...env, GIT_OPTIONAL_LOCKS: "0", GIT_TERMINAL_PROMPT: "0", GIT_PAGER: "cat", GIT_ASKPASS: "", ...extra };
}

/** Runs git; resolves with its standard output, rejects with a GitError naming the command and what git said. */
export function runGit(call: GitCall): Promise<Buffer> {
  return run("git", call.args, call, `git ${subcommand(call.args)}`);
}

/**
 * Runs git with `first`, then (when that succeeded) with `args`, whose output is the result (the
 * first's is dropped); `input` goes to the first. One process is started from Node instead of two (each start forks
 * this whole process: a few milliseconds of its main thread); a shell starts the two gits.
 */
export function runGitThen(call: GitCall & { first: readonly string[] }): Promise<Buffer> {
  const script = `git ${call.first.map(shellQuoted).join(" ")} >/dev/null && exec git "$@"`;
  return run("/bin/sh", ["-c", script, "sh", ...call.args], call, `git ${subcommand(call.first)} then ${subcommand(call.args)}`);
}

function shellQuoted(arg: string): string {
  return `'${arg.replace(/'/g, `'\\''`)}'`;
}

function run(command: string, argv: readonly string[], call: GitCall, name: string): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    // In a process group of its own, so that a time-out ends everything it started: the shell of
    // `runGitThen` and the gits under it, a git's hooks, filters and helpers. Killing the first
    // process alone would leave those running (and holding its pipes open, so it never closes).
    const child = spawn(command, argv, { cwd: call.cwd, env: gitEnv(call.env), stdio: ["pipe", "pipe", "pipe"], detached: true });
    const out: Buffer[] = [];
    const err: Buffer[] = [];
    let errBytes = 0;
    const timer = setTimeout(() => killGroup(child.pid), call.timeoutMs ?? GIT_TIMEOUT_MS);
    child.stdout.on("data", (chunk: Buffer) => out.push(chunk));
    child.stderr.on("data", (chunk: Buffer) => {
      // What git says on failure is short; a flood of warnings is not worth keeping.
      if (errBytes < 8192) err.push(chunk);
      errBytes += chunk.length;
    });
    child.on("error", (e) => {
      clearTimeout(timer);
      reject(new GitError(`${name} could not start: ${e.message}`, null));
    });
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code === 0) return resolve(Buffer.concat(out));
      const said = Buffer.concat(err).toString("utf8").trim().split("\n").slice(0, 3).join("; ");
      const why = signal === "SIGKILL" ? `took longer than ${Math.round((call.timeoutMs ?? GIT_TIMEOUT_MS) / 1000)} s` : said || `exit status ${code}`;
      reject(new GitError(`${name} failed: ${why}`, code));
    });
    // A child that exits before reading its input closes the pipe: that is its answer, not ours.
    child.stdin.on("error", () => {});
    child.stdin.end(call.input ?? "");
  });
}

function killGroup(pid: number | undefined): void {
  if (pid === undefined) return;
  try {
    process.kill(-pid, "SIGKILL");
  } catch {
    // Already gone.
  }
}

/** The command's name among its arguments (after any `-c key=value`). */
function subcommand(args: readonly string[]): string {
  for (let i = 0; i < args.length; i++) {
    if (args[i] === "-c") i++;
    else return args[i] ?? "";
  }
  return "";
}

/** Splits NUL-terminated output into its fields (the last, empty one dropped). */
export function nulFields(output: Buffer): string[] {
  const text = output.toString("utf8");
  const fields = text.split("\0");
  if (fields[fields.length - 1] === "") fields.pop();
  return fields;
}
