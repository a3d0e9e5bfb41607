/**
 * The turn loop: send history to the model, stream its answer, run the tool calls it made,
 * append everything to history in call order, and ask again until it answers without tools.
 *
 *   pending input ─▶ prompt ─▶ stream ─▶ tool calls? ─yes─▶ run (concurrently) ─▶ outputs ─┐
 *        ▲                                   │ no                                          │
 *        └───────────────────────────────────┴──▶ done (unless input arrived meanwhile,  ◀──┘
 *                                                   or a Stop hook sends it back)
 */
import { developerText, type ResponseItem, type ToolCallItem, type ToolSearchCallItem } from "../protocol/items.js";
import type { ConversationHistory } from "./history.js";
import type { DispatchContext, ToolRouter } from "../tools/router.js";
import { outputItem } from "../tools/router.js";
import { sampleWithRetries } from "./sampling.js";
import type { TaskContext } from "./tasks/task.js";
import { TurnDiffTracker } from "../patch/turn-diff.js";
import { ModelError } from "../model/errors.js";
import { approxTokenCount } from "../exec/truncate.js";
import { limitToolOutputs } from "./tool-output-limit.js";
import { admitSteeredInput, checkStop } from "./turn-hooks.js";
import { webSearchHooks } from "./web-search-hooks.js";

/** Output recorded for a call whose tool never finished because the turn was interrupted. */
export const ABORTED_OUTPUT = "aborted";

/**
 * Runs one turn with what its task was given: the task's history, instructions, emitter and
 * compaction (a review passes its own history and instructions, and no compaction).
 */
export async function runTurn(ctx: TaskContext): Promise<string | null> {
  const { turn, signal, emit, history } = ctx;
  const { specs, router, deferred } = await ctx.tools();
  announceDeferredTools(history, deferred?.announcement() ?? null);
  let lastAgentMessage: string | null = null;
  const turnDiff = new TurnDiffTracker(turn.cwd);
  let lastDiff: string | null = null;
  // Base instructions and tool specs go with every request besides history.
  const overheadTokens = approxTokenCount(ctx.baseInstructions) + approxTokenCount(JSON.stringify(specs));
  // Set by a compaction, cleared by the next completed response: never compact twice in a row.
  let justCompacted = false;
  /** False when a PreCompact hook stopped it: the turn ends there. */
  const compactNow = async (): Promise<boolean> => {
    const done = await (ctx.compaction?.run({ overheadTokens }, "auto") ?? Promise.resolve(true)).catch((err: unknown) => {
      // Even the compaction did not fit (the initial context alone is too big): show it full.
      if (err instanceof ModelError && err.kind === "context_window") ctx.compaction?.windowFull();
      throw err;
    });
    justCompacted = true;
    return done;
  };
  // Set once a Stop hook sent the agent back to work this turn (hooks read it as stop_hook_active).
  let stopHookActive = false;
  for (;;) {
    history.append(...(await admitSteeredInput(turn, emit, ctx.takePendingInput())));
    // Before the turn's first request and between its requests, as the reference does.
    if (ctx.compaction?.due(overheadTokens) && !justCompacted && !(await compactNow())) break;
    const result = await sampleWithRetries({
      client: ctx.client,
      prompt: {
        model: turn.model.slug,
        input: [developerText(ctx.baseInstructions), ...history.snapshot()],
        tools: specs,
        parallelToolCalls: turn.model.supportsParallelToolCalls,
        reasoning: turn.model.supportsReasoning
          ? { effort: turn.reasoningEffort ?? turn.model.defaultReasoningEffort, summary: turn.reasoningSummary }
          : null,
        verbosity: turn.model.supportsVerbosity ? (turn.verbosity ?? turn.model.defaultVerbosity) : null,
        outputSchema: turn.outputSchema,
        threadId: ctx.threadId,
        ...(ctx.requestLineage ? { lineage: ctx.requestLineage } : {}),
        telemetry: turn.services.telemetry,
      },
      streamMaxRetries: ctx.streamMaxRetries,
      signal,
      emit,
      showRawReasoning: turn.showRawAgentReasoning,
      onRateLimits: (snapshot) => ctx.recordRateLimits(snapshot),
    }).catch((err: unknown) => {
      // A reached usage limit comes with the account's limits: show them before the error.
      if (err instanceof ModelError && err.options.rateLimits) ctx.recordRateLimits(err.options.rateLimits);
      if (!(err instanceof ModelError) || err.kind !== "context_window") throw err;
      ctx.compaction?.windowFull();
      // The window overflowed before our estimate said so: compact once and try again.
      if (ctx.compaction && !justCompacted && !signal.aborted) return null;
      throw err;
    });
    if (result === null) {
      if (!(await compactNow())) break;
      continue;
    }
    justCompacted = false;
    history.append(...result.items);
    ctx.recordUsage(result.usage);
    if (result.lastAgentMessage !== null) lastAgentMessage = result.lastAgentMessage;

    const calls = result.items.filter(
      (i): i is ToolCallItem => i.type === "function_call" || i.type === "custom_tool_call",
    );
    await webSearchHooks(result.items, turn, emit, (text) => history.append(developerText(text)));
    // tool_search is answered here at once: a search of the deferred tools, no process, no approval.
    const searches = result.items.filter((i): i is ToolSearchCallItem => i.type === "tool_search_call").map((call) => router.search(call));
    history.append(...searches);
    if (calls.length === 0 && searches.length === 0) {
      // The model is done, unless the user said more while it was answering, or a Stop hook sends it back.
      if (signal.aborted) break;
      const pending = await admitSteeredInput(turn, emit, ctx.takePendingInput());
      if (pending.length > 0) {
        history.append(...pending);
        continue;
      }
      const check = await checkStop(turn, emit, lastAgentMessage, stopHookActive);
      if (check.continuation === null || signal.aborted) break;
      history.append(check.continuation);
      stopHookActive = true;
      continue;
    }
    if (calls.length === 0) continue;
    // Nothing may change a file before the turn's first undo snapshot is taken.
    await turn.services.fileHistory?.toolsStarting();
    const notes: string[] = [];
    const outputs = await runToolCalls(calls, { turn, signal, emit, turnDiff, noteForModel: (text) => notes.push(text) }, router, turn.model.supportsParallelToolCalls);
    turn.services.fileHistory?.toolsFinished();
    history.append(...limitToolOutputs(outputs, turn.model.truncationTokens), ...notes.map(developerText));
    // After each batch of tool calls, the net change of the turn so far, if patches changed it.
    const diff = turnDiff.unifiedDiff();
    if (diff !== null && diff !== lastDiff) emit({ type: "turn_diff", unified_diff: diff });
    lastDiff = diff;
  }
  return lastAgentMessage;
}

const DEFERRED_ANNOUNCEMENT = "<tools>\nDeferred tool namespaces:";

/**
 * Tells the model which namespaces tool_search can find, once, and again only when they change
 * (an MCP server added or gone): the latest such note in history (a message of its own, or a
 * part of the initial context's) is compared by the namespaces it names, never rewritten.
 */
function announceDeferredTools(history: ConversationHistory, announcement: string | null): void {
  let latest: string | null = null;
  for (const item of history.snapshot()) {
    if (item.type !== "message" || item.role !== "developer") continue;
    for (const part of item.content) if (part.type === "input_text" && part.text.startsWith(DEFERRED_ANNOUNCEMENT)) latest = part.text;
  }
  if (announcement !== null && (latest === null || announcedNamespaces(announcement) !== announcedNamespaces(latest))) history.append(developerText(announcement));
}

/** The namespaces a note names (`- name` or `- name: what it holds`), whoever worded it. */
function announcedNamespaces(note: string): string {
  return note
    .split("\n")
    .flatMap((line) => (line.startsWith("- ") ? [line.slice(2).split(":")[0]?.trim() ?? ""] : []))
    .join(",");
}

/**
 * Runs the calls of one response, concurrently when the model allows parallel calls, and
 * returns their outputs in call order. If the turn is interrupted, calls that did not finish
 * get an "aborted" output so history never holds a call without its answer.
 */
async function runToolCalls(
  calls: ToolCallItem[],
  ctx: DispatchContext,
  router: ToolRouter,
  parallel: boolean,
): Promise<ResponseItem[]> {
  const { signal } = ctx;
  // A tool that returns because the turn was aborted has nothing true to report: its command
  // was killed mid-way, so the model is told "aborted" rather than a partial result.
  const settle = (call: ToolCallItem): Promise<ResponseItem> =>
    router.dispatch(call, ctx).then(
      (output) => (signal.aborted ? outputItem(call, ABORTED_OUTPUT) : output),
      (err: unknown) => {
        if (signal.aborted) return outputItem(call, ABORTED_OUTPUT);
        throw err;
      },
    );
  if (parallel) return Promise.all(calls.map(settle));
  const outputs: ResponseItem[] = [];
  for (const call of calls) {
    outputs.push(signal.aborted ? outputItem(call, ABORTED_OUTPUT) : await settle(call));
  }
  return outputs;
}
