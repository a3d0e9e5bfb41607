/** What a thread offers the sub-agents it starts (its SessionState provides it). */
import type { QuestionUpstream, Questions } from "../../approval/questions.js";
import type { SessionShellSnapshot } from "../../exec/shell-snapshot.js";
import type { ModelInfo } from "../../model/catalog.js";
import type { EventMsg } from "../../protocol/events.js";
import type { ResponseItem } from "../../protocol/items.js";
import type { ConversationHistory } from "../history.js";
import type { McpRuntime } from "../mcp-runtime.js";
import type { SessionOptions, SessionSettings } from "../session-options.js";

export interface AgentParent {
  readonly threadId: string;
  /** What the parent's next turn runs with: its children start from these. */
  readonly settings: SessionSettings;
  readonly options: SessionOptions;
  readonly history: ConversationHistory;
  readonly questions: Questions;
  readonly shellSnapshot: SessionShellSnapshot | null;
  readonly mcp: McpRuntime | null;
  readonly closed: boolean;
  /** The submission id of the parent's running task, or "" between tasks. */
  readonly activeSubId: string;
  send(id: string, msg: EventMsg): void;
  modelInfo(slug: string): ModelInfo;
  /** Puts an item before the model: into the running turn, else into history for the next turn. */
  deliver(item: ResponseItem): void;
}

export type { QuestionUpstream };
