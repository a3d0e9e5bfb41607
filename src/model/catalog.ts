/**
 * What we know about each model family: which request fields it accepts, how big its context is,
 * and which tool shapes it was trained on. Lookups match a slug against the longest known prefix,
 * so dated snapshots ("gpt-4.1-2025-04-14") resolve to their family.
 *
 * Context windows are the *usable* window the reference reports as `model_context_window`: the
 * advertised window scaled by 95% to leave headroom (272,000 -> 258,400 for the GPT-5 line).
 * The automatic compaction threshold defaults to 90% of the advertised window.
 */
import type { ReasoningEffort } from "../protocol/policy.js";
import type { WebSearchSettings } from "../protocol/web-search.js";

export interface ModelInfo {
  /** The slug asked for. */
  slug: string;
  /** The family the slug resolved to, e.g. "gpt-5.5", "gpt-5-codex", "o3", "unknown". */
  family: string;
  /** Usable context window in tokens, if known. */
  contextWindow: number | null;
  /** Token count at which history gets compacted automatically, if known. */
  autoCompactTokenLimit: number | null;
  /** Whether to send the `reasoning` request field. */
  supportsReasoning: boolean;
  supportsReasoningSummaries: boolean;
  defaultReasoningEffort: ReasoningEffort | null;
  supportsParallelToolCalls: boolean;
  /** Whether to send `text.verbosity`. */
  supportsVerbosity: boolean;
  defaultVerbosity: "low" | "medium" | "high" | null;
  /** The command tool shape the family was trained on. */
  shellTool: "exec_command" | "shell" | "shell_command" | null;
  applyPatchTool: "freeform" | "function" | null;
  /** Offer `update_plan`. */
  planTool: boolean;
  viewImageTool: boolean;
  requestUserInputTool: boolean;
  /** Offer get_goal / create_goal / update_goal (the `goals` feature turns them off). */
  goalTools: boolean;
  /** Offer tool_search, with MCP tools deferred behind it (Responses wire only). */
  toolSearch: boolean;
  /** Its hosted web search can also return images (`search_content_types`). */
  webSearchImages: boolean;
  /** Budget, in tokens, for tool output shown to the model. */
  truncationTokens: number;
  /** The hosted web search to offer; the catalog offers none, config decides (core/model-settings.ts). */
  webSearch: WebSearchSettings | null;
}

type Traits = Omit<ModelInfo, "slug" | "family" | "contextWindow" | "autoCompactTokenLimit" | "webSearch"> & {
  /** The window the vendor advertises; null when unknown. */
  advertisedWindow: number | null;
};

/** Share of the advertised window treated as usable input space. */
const USABLE_WINDOW_PERCENT = 95;
/** Share of the advertised window at which compaction kicks in. */
const AUTO_COMPACT_PERCENT = 90;
const DEFAULT_TRUNCATION_TOKENS = 10_000;
const WINDOW_272K = 272_000;

/** Conservative settings for slugs we do not recognise: plain function tools, no extras. */
const FALLBACK: Traits = {
  advertisedWindow: null,
  supportsReasoning: false,
  supportsReasoningSummaries: false,
  defaultReasoningEffort: null,
  supportsParallelToolCalls: false,
  supportsVerbosity: false,
  defaultVerbosity: null,
  shellTool: "shell",
  applyPatchTool: "function",
  planTool: true,
  viewImageTool: false,
  requestUserInputTool: false,
  goalTools: true,
  toolSearch: false,
  webSearchImages: false,
  truncationTokens: DEFAULT_TRUNCATION_TOKENS,
};

/** The current generation, as offered by reference release 0.169 to `gpt-5.5`. */
const CURRENT_GENERATION: Traits = {
  advertisedWindow: WINDOW_272K,
  supportsReasoning: true,
  supportsReasoningSummaries: true,
  defaultReasoningEffort: "medium",
  supportsParallelToolCalls: true,
  supportsVerbosity: true,
  defaultVerbosity: "low",
  shellTool: "exec_command",
  applyPatchTool: "freeform",
  planTool: false,
  viewImageTool: true,
  requestUserInputTool: true,
  goalTools: true,
  toolSearch: true,
  webSearchImages: true,
  truncationTokens: DEFAULT_TRUNCATION_TOKENS,
};

/** Codex-tuned GPT-5 models: a string shell command, freeform patches, no verbosity knob. */
const CODEX_TUNED: Traits = {
  advertisedWindow: WINDOW_272K,
  supportsReasoning: true,
  supportsReasoningSummaries: true,
  defaultReasoningEffort: null,
  supportsParallelToolCalls: false,
  supportsVerbosity: false,
  defaultVerbosity: null,
  shellTool: "shell_command",
  applyPatchTool: "freeform",
  planTool: true,
  viewImageTool: true,
  requestUserInputTool: false,
  goalTools: true,
  toolSearch: false,
  webSearchImages: false,
  truncationTokens: DEFAULT_TRUNCATION_TOKENS,
};

/** General GPT-5.1/5.2 models: like the codex-tuned ones, plus verbosity and parallel calls. */
const GPT_5_1_LINE: Traits = {
  ...CODEX_TUNED,
  defaultReasoningEffort: "medium",
  supportsParallelToolCalls: true,
  supportsVerbosity: true,
  defaultVerbosity: "low",
};

/** o-series reasoning models and gpt-4 class models share these function-tool defaults. */
const O_SERIES: Traits = {
  ...FALLBACK,
  advertisedWindow: 200_000,
  supportsReasoning: true,
  supportsReasoningSummaries: true,
  viewImageTool: true,
};

const GPT_4_CLASS: Traits = { ...FALLBACK, viewImageTool: true };

/** Known prefixes; the longest one that starts the slug wins. */
const FAMILIES: Record<string, Traits> = {
  "gpt-5.5": CURRENT_GENERATION,
  // Only gpt-5.5 searches for deferred tools in reference 0.169; gpt-5.4 gets them up front.
  "gpt-5.4": { ...CURRENT_GENERATION, toolSearch: false },
  "gpt-5.3-codex": { ...CODEX_TUNED, shellTool: "exec_command", supportsParallelToolCalls: true },
  "gpt-5.2-codex": CODEX_TUNED,
  "gpt-5.2": GPT_5_1_LINE,
  "gpt-5.1-codex-max": CODEX_TUNED,
  "gpt-5.1-codex": CODEX_TUNED,
  "gpt-5.1": GPT_5_1_LINE,
  "gpt-5-codex": CODEX_TUNED,
  "codex-": CODEX_TUNED,
  "gpt-5": {
    ...FALLBACK,
    advertisedWindow: WINDOW_272K,
    supportsReasoning: true,
    supportsReasoningSummaries: true,
    supportsVerbosity: true,
    applyPatchTool: "freeform",
    viewImageTool: true,
  },
  // codex-mini-latest natively knows the hosted `local_shell` tool, whose arguments are an argv
  // just like our `shell` tool, so we offer that.
  "codex-mini-latest": O_SERIES,
  o3: O_SERIES,
  "o4-mini": O_SERIES,
  "gpt-4.1": { ...GPT_4_CLASS, advertisedWindow: 1_047_576 },
  "gpt-4o": { ...GPT_4_CLASS, advertisedWindow: 128_000 },
  "gpt-3.5": { ...FALLBACK, advertisedWindow: 16_385 },
  "gpt-oss": { ...FALLBACK, advertisedWindow: 96_000 },
  "openai/gpt-oss": { ...FALLBACK, advertisedWindow: 96_000 },
};

/** Every slug prefix the catalog knows, e.g. for checks that must cover each family. */
export const FAMILY_PREFIXES: readonly string[] = Object.keys(FAMILIES);

/** Family names for prefixes that are spelled differently from the family they denote. */
const FAMILY_ALIASES: Record<string, string> = {
  "openai/gpt-oss": "gpt-oss",
  "codex-": "gpt-5-codex",
};

function longestPrefix(slug: string): string | null {
  let best: string | null = null;
  for (const prefix of Object.keys(FAMILIES)) {
    if (slug.startsWith(prefix) && (best === null || prefix.length > best.length)) {
      best = prefix;
    }
  }
  return best;
}

export function modelInfoFor(slug: string): ModelInfo {
  const prefix = longestPrefix(slug);
  const traits = (prefix !== null ? FAMILIES[prefix] : undefined) ?? FALLBACK;
  const family = prefix === null ? "unknown" : (FAMILY_ALIASES[prefix] ?? prefix);
  const { advertisedWindow, ...rest } = traits;
  return {
    slug,
    family,
    contextWindow: advertisedWindow === null ? null : Math.floor((advertisedWindow * USABLE_WINDOW_PERCENT) / 100),
    autoCompactTokenLimit:
      advertisedWindow === null ? null : Math.floor((advertisedWindow * AUTO_COMPACT_PERCENT) / 100),
    ...rest,
    webSearch: null,
  };
}
