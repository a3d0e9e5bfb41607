/**
 * Compaction: when the conversation nears the model's context window (or the user asks), the
 * history is replaced by a shorter one that keeps the task going. Two ways, same result shape:
 *
 * - local: the same model, without tools, writes a hand-over summary of the history (our
 *   prompt); history becomes initial context + the user's recent messages + working state +
 *   summary (see rebuild.ts);
 * - remote: the Responses API's compaction endpoint returns the replacement (its opaque
 *   `compaction` item and what it keeps); we put our initial context and working state around it.
 *
 * The compaction request is sized to fit before it is sent (oldest items left out of what the
 * summariser reads, calls and outputs together), so compacting never fails for lack of room.
 * If the compacted history itself still does not fit, its oldest items are dropped, paired, and
 * a warning says so. Either way a `compacted` rollout line records the new history, which a
 * resume replays as is.
 */
import { ModelError } from "../../model/errors.js";
import type { ModelClient } from "../../model/prompt.js";
import type { EventMsg, TokenUsage } from "../../protocol/events.js";
import { assistantText, developerText, userText, type ResponseItem } from "../../protocol/items.js";
import { approxTokenCount } from "../../exec/truncate.js";
import type { TurnContext } from "../../tools/turn-context.js";
import type { ConversationHistory } from "../history.js";
import { estimateTokens } from "../history.js";
import { sampleWithRetries } from "../sampling.js";
import { dropOldestPaired, shrinkLargeItems } from "./fit.js";
import { summarizationPrompt } from "./prompt.js";
import { USER_MESSAGES_MAX_TOKENS, buildCompactedHistory, capUserMessages, collectUserMessages, contextItems, contextPrefixLength } from "./rebuild.js";
import { isWorkingStateNote, workingStateNote } from "./working-state.js";

/** What a compaction needs from its session. */
export interface CompactionHost {
  client: ModelClient;
  history: ConversationHistory;
  baseInstructions: string;
  threadId: string;
  streamMaxRetries: number;
  /** Use the provider's compaction endpoint (when the client has one). */
  remote: boolean;
  /** `compact_prompt` (or `experimental_compact_prompt_file`'s text): the local summary's prompt instead of ours. */
  summaryPrompt: string | null;
  /** What the last response said the conversation weighs, unless history changed since. */
  reportedContextTokens(): number | null;
  recordUsage(usage: TokenUsage | null): void;
  /** Replaces history, records the `compacted` line and the new token estimate. */
  commit(items: ResponseItem[], summary: string): void;
}

export interface CompactOptions {
  /** The manual op's "what to keep". */
  instructions?: string;
  /** Tokens every request adds besides history (base instructions, tool specs). */
  overheadTokens: number;
}

/** Room kept for the model's answer: a tenth of the window, within sensible bounds. */
export function answerReserve(window: number): number {
  return Math.min(16_000, Math.max(1_000, Math.floor(window / 10)));
}

const MAX_ATTEMPTS = 3;

export async function compact(
  turn: TurnContext,
  host: CompactionHost,
  options: CompactOptions,
  signal: AbortSignal,
  emit: (msg: EventMsg) => void,
): Promise<void> {
  const history = [...host.history.snapshot()];
  const window = turn.model.contextWindow;
  const prompt = summarizationPrompt(options.instructions, host.summaryPrompt);
  const remote = host.remote && host.client.compact !== undefined;
  // What the summariser reads must leave room for its instructions, the prompt and the answer.
  let budget = window === null ? Infinity : window - approxTokenCount(host.baseInstructions) - approxTokenCount(prompt) - answerReserve(window);
  const protect = contextPrefixLength(history);
  for (let attempt = 1; ; attempt++) {
    const input = Number.isFinite(budget) ? fitInput(history, protect, Math.max(0, budget)) : history;
    try {
      const replacement = remote
        ? await remoteCompaction(turn, host, input, signal)
        : await localCompaction(turn, host, input, prompt, signal, emit);
      return finish(turn, host, history, replacement, options, emit);
    } catch (err) {
      // A provider that counts more tokens than our estimate: read less and try again.
      if (!(err instanceof ModelError) || err.kind !== "context_window" || attempt >= MAX_ATTEMPTS || signal.aborted) throw err;
      budget = (Number.isFinite(budget) ? budget : estimateTokens(history)) / 2;
    }
  }
}

/** The summariser's input within `budget`: oldest items left out first, then oversized ones cut. */
function fitInput(history: ResponseItem[], protect: number, budget: number): ResponseItem[] {
  const dropped = dropOldestPaired(history, protect, budget).items;
  return estimateTokens(dropped) <= budget ? dropped : shrinkLargeItems(dropped, Math.floor(budget / 4));
}

interface Replacement {
  /** The server's replacement history (remote), or null: rebuild around `summary` (local). */
  items: ResponseItem[] | null;
  summary: string;
}

async function localCompaction(
  turn: TurnContext,
  host: CompactionHost,
  input: ResponseItem[],
  prompt: string,
  signal: AbortSignal,
  emit: (msg: EventMsg) => void,
): Promise<Replacement> {
  const result = await sampleWithRetries({
    client: host.client,
    prompt: {
      model: turn.model.slug,
      input: [developerText(host.baseInstructions), ...input, userText(prompt)],
      tools: [],
      parallelToolCalls: false,
      reasoning: turn.model.supportsReasoning ? { effort: turn.reasoningEffort ?? turn.model.defaultReasoningEffort, summary: turn.reasoningSummary } : null,
      verbosity: null,
      outputSchema: null,
      threadId: host.threadId,
      telemetry: turn.services.telemetry,
    },
    streamMaxRetries: host.streamMaxRetries,
    signal,
    // The summary is for the next request, not for the user: only retries are worth showing.
    emit: (msg) => {
      if (msg.type === "stream_error") emit(msg);
    },
  });
  host.recordUsage(result.usage);
  const summary = result.lastAgentMessage ?? result.items.map(assistantText).filter((t) => t !== undefined).join("\n");
  return { items: null, summary: summary.trim() || "(The summariser returned no text; continue from the user's messages above.)" };
}

async function remoteCompaction(turn: TurnContext, host: CompactionHost, input: ResponseItem[], signal: AbortSignal): Promise<Replacement> {
  const compactEndpoint = host.client.compact?.bind(host.client);
  if (!compactEndpoint) throw new Error("this provider has no compaction endpoint");
  const output = await compactEndpoint(
    { model: turn.model.slug, input, instructions: host.baseInstructions, threadId: host.threadId, telemetry: turn.services.telemetry },
    signal,
  );
  // Our own context leads (and the working state follows) whatever the server kept of them.
  const kept = output.filter((i) => !(i.type === "message" && (i.role === "developer" || i.role === "system")) && !isWorkingStateNote(i));
  return { items: kept, summary: "" };
}

function finish(
  turn: TurnContext,
  host: CompactionHost,
  history: ResponseItem[],
  replacement: Replacement,
  options: CompactOptions,
  emit: (msg: EventMsg) => void,
): void {
  const window = turn.model.contextWindow;
  const context = contextItems(history);
  const note = workingStateNote(history);
  let rebuilt: ResponseItem[];
  if (replacement.items !== null) {
    const contextJson = new Set(context.map((i) => JSON.stringify(i)));
    const kept = replacement.items.filter((i) => !contextJson.has(JSON.stringify(i)));
    rebuilt = [...context, ...kept, ...(note !== null ? [userText(note)] : [])];
  } else {
    const cap = window === null ? USER_MESSAGES_MAX_TOKENS : Math.min(USER_MESSAGES_MAX_TOKENS, Math.floor(window / 4));
    const messages = collectUserMessages(history);
    const kept = capUserMessages(messages, cap);
    if (kept.length > 0 && kept[kept.length - 1] !== messages[messages.length - 1]) {
      emit({ type: "warning", message: "The latest message was too long to keep whole in the model's context window: only its beginning and end were kept." });
    }
    rebuilt = buildCompactedHistory({
      context,
      userMessages: kept,
      workingState: note,
      summary: replacement.summary,
    });
  }
  if (window !== null) {
    const budget = window - options.overheadTokens - answerReserve(window);
    const fitted = dropOldestPaired(rebuilt, context.length, budget);
    if (fitted.dropped > 0) {
      emit({
        type: "warning",
        message: `The conversation still did not fit the model's context window after compaction: the ${fitted.dropped} oldest item(s) were left out.`,
      });
      rebuilt = fitted.items;
    }
  }
  host.commit(rebuilt, replacement.summary);
  emit({ type: "context_compacted" });
}
