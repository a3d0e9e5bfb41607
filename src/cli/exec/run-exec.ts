/**
 * `codex-ts exec`: run one task headless. Builds the config, starts a Session, submits the
 * prompt as a user turn, and renders events (human text on stderr, or JSONL on stdout) until
 * the turn ends. Exit code 0 when the turn completed, 1 when it failed or could not start, 2 when
 * the configuration is invalid. `exec resume` / `exec fork` run the task on a recorded thread
 * instead of a new one; either way the session is recorded under $CODEX_HOME/sessions unless
 * --ephemeral (see docs/sessions.md).
 */
import { readFileSync, writeFileSync, existsSync, statSync } from "node:fs";
import { dirname, resolve } from "node:path";
import { loadConfig, type Config } from "../../config/load-config.js";
import { configInputFromFlags, type SessionFlags } from "../../config/session-flags.js";
import type { McpSignInRequest } from "../../host/mcp-auth.js";
import { findProjectRoot } from "../../util/project-root.js";
import { ConfigError } from "../../config/overrides.js";
import { checkLocalProvider } from "../../config/oss.js";
import { FrontEndHost, HostStartError } from "../../host/front-end-host.js";
import type { HostedThread, TurnOutcome } from "../../host/hosted-thread.js";
import type { ThreadTarget } from "../../protocol/threads.js";
import type { Event } from "../../protocol/events.js";
import type { Op, UserInput } from "../../protocol/ops.js";
import type { ReviewOutputEvent, ReviewTarget } from "../../protocol/review.js";
import type { AskForApproval } from "../../protocol/policy.js";
import { HumanOutput, palette } from "./human-output.js";
import { JsonlMapper } from "../../presentation/jsonl-mapper.js";
import { threadEventJson } from "../../presentation/web-search-items.js";
import { reviewText } from "../../presentation/review-text.js";
import { PromptError, readPrompt } from "./read-prompt.js";
import { packageVersion } from "../../util/version.js";
import { errorMessage } from "../../util/errors.js";

export interface ExecOptions extends SessionFlags {
  json?: boolean;
  experimentalJson?: boolean;
  outputLastMessage?: string;
  outputSchema?: string;
  cd?: string;
  skipGitRepoCheck?: boolean;
  image: string[];
  color: "always" | "never" | "auto";
  ephemeral?: boolean;
}

/** The reference's sentence when exec runs outside a Git repository. */
export const NOT_TRUSTED = "Not inside a trusted directory and --skip-git-repo-check was not specified.";

/** What is wrong with exec's own arguments (files and folders they name), or null. */
function argumentProblem(opts: ExecOptions, cwd: string): string | null {
  if (opts.model !== undefined && opts.model.trim() === "") return "--model is empty: name a model, e.g. -m gpt-5.5";
  for (const image of opts.image) {
    const path = resolve(cwd, image);
    if (!existsSync(path)) return `--image ${image}: no such file (${path})`;
    if (!statSync(path).isFile()) return `--image ${image}: not a file`;
  }
  for (const dir of opts.addDir) {
    const path = resolve(cwd, dir);
    if (existsSync(path) && !statSync(path).isDirectory()) return `--add-dir ${dir}: not a directory (${path})`;
  }
  if (opts.outputLastMessage) {
    const folder = dirname(resolve(cwd, opts.outputLastMessage));
    if (!existsSync(folder) || !statSync(folder).isDirectory()) {
      return `--output-last-message ${opts.outputLastMessage}: the folder ${folder} does not exist`;
    }
  }
  return null;
}

const fail = (message: string): number => {
  process.stderr.write(`${message}\n`);
  return 1;
};

/** `exec review`: what to review instead of a prompt, and when findings fail the run. */
export interface ReviewRun {
  target: ReviewTarget;
  /** Exit 1 when a finding has this priority or a more urgent one (0 is the most urgent). */
  failOnPriority?: number;
}

export async function runExec(
  promptArg: string | undefined,
  opts: ExecOptions,
  target: ThreadTarget | null = null,
  review: ReviewRun | null = null,
): Promise<number> {
  const cwd = resolve(opts.cd ?? process.cwd());
  if (!existsSync(cwd)) return fail(`--cd ${opts.cd}: no such directory`);
  if (!opts.skipGitRepoCheck && findProjectRoot(cwd, [".git"]) === null) {
    // The first sentence is the reference's, which tools built on the SDK look for.
    return fail(`${NOT_TRUSTED} Run codex-ts exec inside a Git repository, or pass --skip-git-repo-check to run here anyway.`);
  }
  // Mistakes in what was asked are caught before anything runs, not after a whole turn.
  const problem = argumentProblem(opts, cwd);
  if (problem !== null) return fail(problem);
  // As in the reference, a folder that does not exist yet does not stop the run (the Codex SDK
  // passes such folders); the sandbox opens it to writes once it exists.
  for (const dir of opts.addDir) {
    const path = resolve(cwd, dir);
    if (!existsSync(path)) process.stderr.write(`warning: --add-dir ${dir}: no such directory yet (${path}); it becomes writable once it exists\n`);
  }
  if (review && opts.outputSchema) process.stderr.write("note: --output-schema does not apply to a review: its findings have a format of their own\n");

  let config: Config;
  try {
    // Nobody is there to answer approval prompts in exec: failures go back to the model.
    config = loadConfig({ ...configInputFromFlags(cwd, opts), approvalPolicy: "never" satisfies AskForApproval });
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Error loading config: ${err.message}\n`);
      return 2;
    }
    throw err;
  }
  if (opts.oss) {
    const problem = await checkLocalProvider(config.provider);
    if (problem) return fail(problem);
  }

  // A headless run (CI) with no $BROWSER named has nobody to authorize: servers that want a
  // login then fail at once with the `codex-ts mcp login` hint instead of waiting minutes.
  const canAuthorize = process.stdin.isTTY === true || Boolean(process.env.BROWSER?.trim());
  const host = new FrontEndHost("exec", process.env, canAuthorize ? { mcpSignIn: execMcpSignIn } : {});
  try {
    host.checkCredentials(config);
  } catch (err) {
    if (err instanceof HostStartError) return fail(err.message);
    throw err;
  }
  let outputSchema: unknown;
  if (opts.outputSchema && !review) {
    try {
      outputSchema = JSON.parse(readFileSync(resolve(opts.outputSchema), "utf8"));
    } catch (err) {
      return fail(`--output-schema ${opts.outputSchema}: ${errorMessage(err)}`);
    }
  }

  let prompt = "";
  if (!review) {
    try {
      prompt = await readPrompt(promptArg, process.stdin);
    } catch (err) {
      if (err instanceof PromptError) return fail(err.message);
      throw err;
    }
  }

  const json = opts.json === true || opts.experimentalJson === true;
  let thread: HostedThread;
  try {
    // exec draws no conversation: a resumed thread's redraw is not built.
    thread = await host.open({ config, target, ephemeral: opts.ephemeral === true, redraw: false });
  } catch (err) {
    if (err instanceof HostStartError) return fail(err.message);
    throw err;
  }
  for (const notice of thread.notices) process.stderr.write(`${notice}\n`);

  let interrupts = 0;
  const onSigint = (): void => {
    if (++interrupts > 1) process.exit(130);
    thread.submit({ type: "interrupt" });
  };
  process.on("SIGINT", onSigint);

  const mapper = json ? new JsonlMapper(config.hideAgentReasoning) : null;
  const human = json ? null : new HumanOutput((t) => process.stderr.write(`${t}\n`), palette(useColor(opts.color)), packageVersion(), config.hideAgentReasoning);
  const render = (event: Event): void => {
    if (mapper) for (const line of mapper.map(event)) process.stdout.write(`${threadEventJson(line)}\n`);
    else human?.render(event);
  };
  // Events are shown as they come, MCP start-up progress included, while the turn waits below.
  const rendered = thread.listen(render);

  // A `required` MCP server that did not start fails the run before the model is asked anything.
  let startupError: string | null = null;
  try {
    await host.ready(thread);
  } catch (err) {
    if (!(err instanceof HostStartError)) throw err;
    startupError = err.message;
  }
  let outcome: TurnOutcome | null = null;
  if (startupError === null && interrupts === 0) {
    const op: Op = review
      ? { type: "review", review_request: { target: review.target } }
      : { type: "user_turn", items: [...opts.image.map((path): UserInput => ({ type: "local_image", path: resolve(cwd, path) })), { type: "text", text: prompt }], final_output_json_schema: outputSchema };
    outcome = await thread.runTurn(op, render);
  }
  await thread.shutdown();
  await rendered;
  process.off("SIGINT", onSigint);
  const code = finish(outcome);
  // Telemetry still held in memory goes out before the process ends (bounded for a slow collector).
  for (const warning of await host.shutdown()) process.stderr.write(`warning: ${warning}\n`);
  return code;

  function finish(turn: TurnOutcome | null): number {
    if (startupError !== null) return fail(`Error: ${startupError}`);
    // Interrupted while waiting for MCP servers: the turn never started.
    if (turn === null) return fail("turn interrupted");
    const turnFailed = turn.status !== "completed";
    if (review) {
      const text = turn.reviewOutput ? reviewText(turn.reviewOutput) : null;
      if (opts.outputLastMessage) writeLastMessage(opts.outputLastMessage, text);
      if (!json && text !== null) process.stdout.write(`${text}\n`);
      return reviewExitCode(turn.reviewOutput, turnFailed, review.failOnPriority);
    }
    if (opts.outputLastMessage) writeLastMessage(opts.outputLastMessage, turn.lastAgentMessage);
    if (!json && turn.lastAgentMessage !== null && !turnFailed) process.stdout.write(`${turn.lastAgentMessage}\n`);
    return turnFailed ? 1 : 0;
  }
}

/**
 * An MCP server that asks for a login, or for more scopes in the middle of a call, when someone
 * can answer (a terminal, or a $BROWSER): the URL goes to stderr and to the browser, and the run
 * waits for the redirect.
 */
async function execMcpSignIn(request: McpSignInRequest): Promise<boolean> {
  const what = request.scopes.length > 0 ? `more access (${request.scopes.join(" ")})` : "a login";
  process.stderr.write(`MCP server '${request.server}' asks for ${what}. Authorize it in your browser:\n${request.url}\n`);
  const { openInBrowser } = await import("../../host/mcp-auth.js");
  return (await openInBrowser(request.url)) || process.stdin.isTTY === true;
}

/** 0 when the review ran, whatever it found; 1 when it failed, or found something at or above `failOn`. */
function reviewExitCode(output: ReviewOutputEvent | null, failed: boolean, failOn: number | undefined): number {
  if (failed || output === null) return 1;
  if (failOn !== undefined && output.findings.some((f) => f.priority <= failOn)) return 1;
  return 0;
}

/** Writes the final message to `-o`'s file; a failure is a warning (the answer still reaches stdout). */
function writeLastMessage(path: string, message: string | null): void {
  if (message === null) process.stderr.write(`Warning: no last agent message; wrote empty content to ${path}\n`);
  try {
    writeFileSync(path, message ?? "");
  } catch (err) {
    process.stderr.write(`Warning: could not write the last message to ${path}: ${errorMessage(err)}\n`);
  }
}

function useColor(mode: ExecOptions["color"]): boolean {
  if (mode === "always") return true;
  if (mode === "never") return false;
  return process.stderr.isTTY === true && !process.env.NO_COLOR;
}
