/**
 * What the config changes about a model's catalog entry: the context window, the automatic
 * compaction threshold, the tool-output budget, reasoning summaries for a model the catalog does not know, the tools feature
 * flags turn on or off, and the hosted web search. Applied to every turn's model, so the whole session agrees.
 */
import type { ModelInfo } from "../model/catalog.js";
import type { WebSearchSettings } from "../protocol/web-search.js";

export interface ModelSettings {
  /** `model_context_window`: replaces the catalog's window. */
  contextWindow: number | null;
  /** `model_auto_compact_token_limit`: replaces the catalog's compaction threshold. */
  autoCompactTokenLimit?: number | null;
  /** `tool_output_token_limit`: the budget for each tool output the model reads. */
  toolOutputTokenLimit: number | null;
  /** `model_supports_reasoning_summaries`: send reasoning settings even where the catalog would not. */
  supportsReasoningSummaries: boolean | null;
  /** Resolved `[features]`. */
  features: Readonly<Record<string, boolean>>;
  /** The hosted web search to offer (config/web-search.ts); absent or null: none. */
  webSearch?: WebSearchSettings | null;
  /** False on the Chat Completions wire, which has no hosted tools: tool_search is never offered. */
  hostedTools?: boolean;
}

/** The highest share of the window at which compaction may start, whatever config says. */
export const AUTO_COMPACT_WINDOW_PERCENT = 90;

export function effectiveModelInfo(model: ModelInfo, settings: ModelSettings | undefined): ModelInfo {
  if (!settings) return model;
  const out: ModelInfo = { ...model };
  if (settings.contextWindow !== null) out.contextWindow = settings.contextWindow;
  // Compaction must start while the window still has room for the compaction request itself:
  // a configured window brings its own threshold, and no configured threshold may exceed it.
  const ceiling = out.contextWindow === null ? null : Math.floor((out.contextWindow * AUTO_COMPACT_WINDOW_PERCENT) / 100);
  if (settings.contextWindow !== null) out.autoCompactTokenLimit = ceiling;
  if (settings.autoCompactTokenLimit != null) {
    out.autoCompactTokenLimit = ceiling === null ? settings.autoCompactTokenLimit : Math.min(settings.autoCompactTokenLimit, ceiling);
  }
  if (settings.toolOutputTokenLimit !== null) out.truncationTokens = settings.toolOutputTokenLimit;
  if (settings.supportsReasoningSummaries === true) {
    out.supportsReasoning = true;
    out.supportsReasoningSummaries = true;
  }
  const f = settings.features;
  // unified_exec off: the model gets the one-shot shell_command instead of long-lived sessions.
  if (f.unified_exec === false && out.shellTool === "exec_command") out.shellTool = "shell_command";
  if (f.shell_tool === false) out.shellTool = null;
  if (f.goals === false) out.goalTools = false;
  if (settings.hostedTools === false) out.toolSearch = false;
  out.webSearch = settings.webSearch ?? null;
  return out;
}
