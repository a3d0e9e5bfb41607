/**
 * Maps core events to the `exec --json` ThreadEvents, as the reference's exec does: items get
 * ids in order of first appearance, a begin/end pair becomes item.started/item.completed, the
 * plan becomes a todo_list item, MCP tool calls become mcp_tool_call items, web searches
 * web_search items, collab tool calls collab_tool_call items (start-up progress
 * has no counterpart), and an error during the turn turns its end into turn.failed.
 */
import type { Event, EventMsg, FileChange, TokenUsage } from "../protocol/events.js";
import type { ThreadEvent, ThreadItem, Usage } from "../protocol/thread-events.js";
import { shellJoin } from "../util/shell-quote.js";
import { McpItemMapper } from "./mcp-items.js";
import { CollabItemMapper } from "./collab-items.js";
import { WebSearchItems } from "./web-search-items.js";
import { HookReportFilter } from "./hook-runs.js";

type CommandItem = Extract<ThreadItem, { type: "command_execution" }>;
type FileChangeItem = Extract<ThreadItem, { type: "file_change" }>;
type TodoItem = Extract<ThreadItem, { type: "todo_list" }>;

export class JsonlMapper {
  /** `hide_agent_reasoning`: no reasoning items. */
  constructor(private readonly hideReasoning = false) {}

  private nextItem = 0;
  private readonly commands = new Map<string, CommandItem>();
  private readonly patches = new Map<string, FileChangeItem>();
  private readonly hookReports = new HookReportFilter();
  private todo: TodoItem | null = null;
  private turnUsage: Usage = emptyUsage();
  private turnError: string | null = null;
  private readonly mcpItems = new McpItemMapper(() => this.itemId());
  private readonly searches = new WebSearchItems(() => this.itemId());
  private readonly collabItems = new CollabItemMapper(() => this.itemId());

  map(event: Event): ThreadEvent[] {
    const msg = event.msg;
    switch (msg.type) {
      case "session_configured":
        return [{ type: "thread.started", thread_id: msg.session_id }];
      case "task_started":
        this.turnUsage = emptyUsage();
        this.turnError = null;
        this.todo = null;
        return [{ type: "turn.started" }];
      case "agent_message":
        return [{ type: "item.completed", item: { id: this.itemId(), type: "agent_message", text: msg.message } }];
      case "exited_review_mode": {
        const output = msg.review_output;
        if (!output) return [];
        const { findings, ...verdict } = output;
        return [
          ...findings.map((f): ThreadEvent => ({ type: "item.completed", item: { id: this.itemId(), type: "review_finding", ...f } })),
          { type: "item.completed", item: { id: this.itemId(), type: "review", ...verdict, findings: findings.length } },
        ];
      }
      case "agent_reasoning":
        if (this.hideReasoning) return [];
        return [{ type: "item.completed", item: { id: this.itemId(), type: "reasoning", text: msg.text } }];
      case "exec_command_begin": {
        const item: CommandItem = {
          id: this.itemId(),
          type: "command_execution",
          command: shellJoin(msg.command),
          aggregated_output: "",
          exit_code: null,
          status: "in_progress",
        };
        this.commands.set(msg.call_id, item);
        return [{ type: "item.started", item: { ...item } }];
      }
      case "exec_command_end": {
        const started = this.commands.get(msg.call_id);
        this.commands.delete(msg.call_id);
        const item: CommandItem = {
          id: started?.id ?? this.itemId(),
          type: "command_execution",
          command: started?.command ?? shellJoin(msg.command),
          aggregated_output: msg.aggregated_output,
          exit_code: msg.exit_code,
          status: msg.exit_code === 0 ? "completed" : "failed",
        };
        return [{ type: "item.completed", item }];
      }
      case "patch_apply_begin": {
        const item: FileChangeItem = { id: this.itemId(), type: "file_change", changes: fileChanges(msg.changes), status: "in_progress" };
        this.patches.set(msg.call_id, item);
        return [{ type: "item.started", item: { ...item } }];
      }
      case "patch_apply_end": {
        const started = this.patches.get(msg.call_id);
        this.patches.delete(msg.call_id);
        const item: FileChangeItem = {
          id: started?.id ?? this.itemId(),
          type: "file_change",
          changes: started?.changes ?? [],
          status: msg.success ? "completed" : "failed",
        };
        return [{ type: "item.completed", item }];
      }
      case "mcp_tool_call_begin":
      case "mcp_tool_call_end":
        return [this.mcpItems.map(msg)];
      case "collab_agent_spawn_begin":
      case "collab_agent_spawn_end":
      case "collab_agent_interaction_begin":
      case "collab_agent_interaction_end":
      case "collab_waiting_begin":
      case "collab_waiting_end":
      case "collab_close_begin":
      case "collab_close_end":
      case "collab_resume_begin":
      case "collab_resume_end":
      case "sub_agent_status":
        return this.collabItems.map(msg);
      case "web_search_begin":
      case "web_search_end":
        return [this.searches.map(msg)];
      case "plan_update": {
        const items = msg.plan.map((p) => ({ text: p.step, completed: p.status === "completed" }));
        if (this.todo) {
          this.todo = { ...this.todo, items };
          return [{ type: "item.updated", item: this.todo }];
        }
        this.todo = { id: this.itemId(), type: "todo_list", items };
        return [{ type: "item.started", item: this.todo }];
      }
      case "token_count":
        if (msg.info) this.addUsage(msg.info.last_token_usage);
        return [];
      case "warning":
        return [{ type: "item.completed", item: { id: this.itemId(), type: "error", message: msg.message } }];
      case "hook_completed": {
        // A hook that failed (timed out, crashed, printed nonsense) is reported as a warning is; decisions are not items.
        const report = this.hookReports.report(msg.run);
        if (!report?.failed) return [];
        return [{ type: "item.completed", item: { id: this.itemId(), type: "error", message: `hook ${report.event} failed: ${report.lines.join("; ")}` } }];
      }
      case "stream_error":
        return [{ type: "error", message: msg.message }];
      case "error":
        this.turnError = msg.message;
        return [{ type: "error", message: msg.message }];
      case "turn_aborted":
        return [...this.closeTodo(), { type: "turn.failed", error: { message: `turn ${msg.reason}` } }];
      case "task_complete": {
        const end: ThreadEvent = this.turnError
          ? { type: "turn.failed", error: { message: this.turnError } }
          : { type: "turn.completed", usage: this.turnUsage };
        return [...this.closeTodo(), end];
      }
      default:
        return ignored(msg);
    }
  }

  private closeTodo(): ThreadEvent[] {
    if (!this.todo) return [];
    const item = this.todo;
    this.todo = null;
    return [{ type: "item.completed", item }];
  }

  private itemId(): string {
    return `item_${this.nextItem++}`;
  }

  private addUsage(last: TokenUsage): void {
    this.turnUsage.input_tokens += last.input_tokens;
    this.turnUsage.cached_input_tokens += last.cached_input_tokens;
    this.turnUsage.output_tokens += last.output_tokens;
    this.turnUsage.reasoning_output_tokens += last.reasoning_output_tokens;
  }
}

/** Events with no counterpart in the JSONL stream (deltas, lifecycle the stream implies). */
function ignored(_msg: EventMsg): ThreadEvent[] {
  return [];
}

function emptyUsage(): Usage {
  return { input_tokens: 0, cached_input_tokens: 0, cache_write_input_tokens: 0, output_tokens: 0, reasoning_output_tokens: 0 };
}

function fileChanges(changes: Record<string, FileChange>): FileChangeItem["changes"] {
  return Object.entries(changes).map(([path, change]) => ({ path, kind: change.type }));
}
