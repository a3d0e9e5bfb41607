/**
 * What the app needs from the process around it (the runner in run-tui.ts implements the host;
 * tests give a recording one), and how it is set up.
 */
import type { SearchableIndex } from "./parts/file-search-popup.js";
import type { Op } from "../protocol/ops.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import type { Theme } from "./parts/theme.js";
import type { InlineRenderer } from "./inline-renderer.js";
import type { CellStyle } from "./cells.js";

/** What the app needs from the process around it (the runner in run-tui.ts). */
export interface AppHost {
  submit(op: Op): string;
  /** The lines /diff shows (the working tree's diff, or why there is none). */
  gitDiff(): Promise<string[]>;
  newThread(): Promise<void>;
  resumePicker(): Promise<void>;
  forkThread(): Promise<void>;
  /** `/rename`: names the current thread. */
  renameThread(name: string): void;
  /** Ctrl+G: the text edited in $VISUAL / $EDITOR; throws with a sentence for the user when it cannot. */
  externalEdit(text: string): Promise<string>;
  /** `/copy`: puts the text on the clipboard (OSC 52, which the terminal passes on). */
  copyToClipboard(text: string): void;
  /** `/model`: saves the choice as the default in config.toml; resolves with the file's path. */
  saveModel(model: string, effort: ReasoningEffort | null): Promise<string>;
  /** What `/status` adds from the configuration: the provider and the AGENTS.md files in use. */
  statusFacts(): { provider: string; agentsFiles: string[] };
  /** `/agent`: the main thread's sub-agents, and the one watched now (null: the main thread). */
  subAgents(): { agents: AgentChoice[]; watching: string | null };
  /** Shows a sub-agent's conversation (live; what the user types goes to it), or the main thread again (null). */
  watchAgent(threadId: string | null): void;
  /** A turn ended or needs the user: the host decides whether to notify (unfocused terminal). */
  notify(event: "agent-turn-complete" | "approval-requested", text: string): void;
  /** The user asked to leave. */
  quit(): void;
  /** The files `@` searches in `cwd`, when they are not this machine's (a remote session). */
  fileIndex?(cwd: string): SearchableIndex | undefined;
}

/** A sub-agent as /agent lists it. */
export interface AgentChoice {
  threadId: string;
  /** Nickname and role. */
  name: string;
  /** Where it stands, in words ("is working", "is done", "is closed"). */
  status: string;
}

export interface AppOptions {
  theme: Theme;
  style: CellStyle;
  renderer: InlineRenderer;
  rows: () => number;
  version: string;
  hideReasoning: boolean;
  mcpServers: string[];
  /** Paths the `@` file list leaves out (what the permission profile denies), once the matcher is loaded. */
  hiddenFile?: () => Promise<(absolutePath: string) => boolean>;
  now?: () => number;
  /** A turn began (the runner starts loading the code highlighter then). */
  onTurnStart?: () => void;
  /** What the header says about the project's trust (e.g. "trusted project"), null when nothing. */
  trustNote?: () => string | null;
  /** Sub-agents run elsewhere (a remote session): `/agent` cannot open their conversations. */
  subAgentsElsewhere?: boolean;
}

