/**
 * The slash command table. Each command is data (name, description, whether it may run while a
 * turn is running) plus what it does through `SlashContext`, the few things the app lends it;
 * later commands plug into the same table. The composer's popup lists and filters this table.
 */
import { existsSync } from "node:fs";
import { join } from "node:path";
import type { SelectItem } from "@mariozechner/pi-tui";
import type { Op } from "../protocol/ops.js";
import type { ReasoningEffort } from "../protocol/policy.js";
import { REASONING_EFFORTS, sandboxPolicyFor } from "../protocol/policy.js";
import type { ReviewTarget } from "../protocol/review.js";
import { expandPrompt } from "../config/custom-prompts.js";
import type { AgentChoice } from "./app-host.js";
import type { Choice } from "./overlays.js";
import { RENAME_COMMAND } from "./thread-name-command.js";
import { GOAL_COMMAND } from "./goal-command.js";
import { PLAN_COMMAND } from "./plan-mode.js";
import type { ThreadGoal } from "../protocol/goals.js";
import { INIT_PROMPT } from "../presentation/init-prompt.js";
import { PERMISSION_PRESETS } from "../presentation/permission-presets.js";
import { errorMessage } from "../util/errors.js";
import type { UndoFlow } from "./undo-flow.js";

export interface SlashContext {
  readonly cwd: string;
  readonly model: string;
  readonly effort: ReasoningEffort | null;
  submit(op: Op): string;
  /** Prints a titled block of lines into the transcript. */
  print(title: string, body: string[]): void;
  error(message: string): void;
  pick(title: string, items: SelectItem[]): Promise<SelectItem | null>;
  /** A question with a few answers (keys and Enter), resolving with the value picked, `escape` on Esc. */
  choose<T>(title: string, choices: Choice<T>[], escape: T): Promise<T>;
  ask(title: string): Promise<string | null>;
  /** Submits a user turn as if typed (the user message cell comes back as an event). */
  sendUserText(text: string): void;
  setComposer(text: string): void;
  statusLines(): string[];
  /** Resolves once the thread's session_configured has arrived (at once when it has). */
  configured(): Promise<void>;
  /** Asks the session for its MCP servers' tools and auth; printed when the answer comes. */
  listMcp(): void;
  /** The models the thread may switch to (the account's, else the catalog's), asked of the session. */
  listModels(): Promise<Array<{ slug: string; is_default: boolean }>>;
  /** Summarises the conversation now (`instructions`: what the summary must keep), showing progress. */
  compact(instructions: string): void;
  /** `/copy`: the latest answer to the clipboard. */
  copyLastAnswer(): void;
  /** `/hooks`: the configured lifecycle hooks, to review, trust and turn on or off. */
  openHooks(): Promise<void>;
  /** Saves the model and effort as the defaults in config.toml; resolves with the file's path. */
  saveModel(model: string, effort: ReasoningEffort | null): Promise<string>;
  gitDiff(): Promise<string[]>;
  newThread(): Promise<void>;
  resumePicker(): Promise<void>;
  forkThread(): Promise<void>;
  /** `/agent`: the main thread's sub-agents, the one watched now (null: the main thread), and whether they run elsewhere (not to be opened here). */
  subAgents(): { agents: AgentChoice[]; watching: string | null; elsewhere: boolean };
  watchAgent(threadId: string | null): void;
  /** `/rename`: names the current thread (or says why it cannot). */
  renameThread(name: string): void;
  /** The thread's goal as the last thread_goal_updated said (null: none). */
  goal(): ThreadGoal | null;
  /** Whether plan mode is on (plan-mode.ts). */
  planMode(): boolean;
  setPlanMode(on: boolean): void;
  /** `/undo`, `/redo` and Esc Esc's files (undo-flow.ts). */
  readonly undoFlow: UndoFlow;
  quit(): void;
}

export interface SlashCommand {
  name: string;
  /** Other names it answers to (typed in full; the popup lists the command under its name). */
  aliases?: string[];
  description: string;
  /** May run while a turn is running. */
  duringTask: boolean;
  /** Shows an argument hint in the popup. */
  argumentHint?: string;
  run(ctx: SlashContext, args: string): void | Promise<void>;
}

export const BUILTIN_COMMANDS: SlashCommand[] = [
  {
    name: "model",
    description: "choose the model and its reasoning effort",
    duringTask: false,
    async run(ctx) {
      const offered = await ctx.listModels();
      const slugs = [...new Set([ctx.model, ...offered.map((m) => m.slug)])];
      const model = await ctx.pick("Model", slugs.map((s) => ({ value: s, label: s, description: s === ctx.model ? "current" : "" })));
      if (!model) return;
      const effortItem = await ctx.pick(
        `Reasoning effort for ${model.value}`,
        [{ value: "default", label: "default", description: "the model's own default" }, ...REASONING_EFFORTS.map((e) => ({ value: e, label: e, description: e === ctx.effort ? "current" : "" }))],
      );
      if (!effortItem) return;
      const effort = effortItem.value === "default" ? null : (effortItem.value as ReasoningEffort);
      const chosen = `${model.value}${effort ? ` (${effort})` : ""}`;
      const scope = await ctx.choose<"save" | "session" | null>(
        `Use ${chosen} from the next turn on`,
        [
          { key: "d", label: "and make it the default (saved in config.toml)", value: "save" },
          { key: "s", label: "for this session only", value: "session" },
        ],
        null,
      );
      if (scope === null) return;
      // The header follows the session's settings_changed answer.
      ctx.submit({ type: "override_turn_context", model: model.value, effort });
      if (scope === "session") return ctx.print("Model changed", [`${chosen} from the next turn on, for this session`]);
      try {
        const file = await ctx.saveModel(model.value, effort);
        ctx.print("Model changed", [`${chosen} from the next turn on, and the default from now on (saved in ${file})`]);
      } catch (err) {
        ctx.print("Model changed", [`${chosen} from the next turn on, for this session`]);
        ctx.error(`Could not save it as the default: ${errorMessage(err)}`);
      }
    },
  },
  {
    name: "permissions",
    aliases: ["approvals"],
    description: "choose what the agent may do without asking",
    duringTask: false,
    async run(ctx) {
      const picked = await ctx.pick("Permissions", PERMISSION_PRESETS.map((p) => ({ value: p.id, label: p.label, description: p.description })));
      const preset = PERMISSION_PRESETS.find((p) => p.id === picked?.value);
      if (!preset) return;
      const sandbox = sandboxPolicyFor(preset.sandbox);
      ctx.submit({ type: "override_turn_context", approval_policy: preset.approval, sandbox_policy: sandbox });
      ctx.print("Permissions changed", [`${preset.label}: approval ${preset.approval}, sandbox ${preset.sandbox}`]);
    },
  },
  { name: "new", description: "start a new conversation", duringTask: false, run: (ctx) => ctx.newThread() },
  { name: "resume", description: "continue a recorded conversation", duringTask: false, run: (ctx) => ctx.resumePicker() },
  { name: "fork", description: "continue a copy of this conversation", duringTask: false, run: (ctx) => ctx.forkThread() },
  {
    name: "review",
    description: "review changes and find problems",
    duringTask: false,
    async run(ctx, args) {
      const target = args.trim() ? ({ type: "custom", instructions: args.trim() } as ReviewTarget) : await pickReviewTarget(ctx);
      if (target) ctx.submit({ type: "review", review_request: { target } });
    },
  },
  {
    name: "diff",
    description: "show the working tree's changes (untracked files included)",
    duringTask: true,
    async run(ctx) {
      ctx.print("/diff", await ctx.gitDiff());
    },
  },
  {
    name: "status",
    description: "show the session's settings and token usage",
    duringTask: true,
    // Typed before the session has started (the composer is ready first), it answers once it has.
    run: async (ctx) => {
      await ctx.configured();
      ctx.print("Status", ctx.statusLines());
    },
  },
  {
    name: "init",
    description: "ask the agent to write an AGENTS.md for this repository",
    duringTask: false,
    run(ctx) {
      if (existsSync(join(ctx.cwd, "AGENTS.md"))) return ctx.print("/init", ["AGENTS.md already exists here; nothing to do."]);
      ctx.sendUserText(INIT_PROMPT);
    },
  },
  { name: "mention", description: "mention a file (opens the @ file search)", duringTask: true, run: (ctx) => ctx.setComposer("@") },
  {
    name: "compact",
    description: "summarise the conversation to free context",
    argumentHint: "[what the summary must keep]",
    duringTask: false,
    run: (ctx, args) => ctx.compact(args),
  },
  { name: "undo", description: "put back the files the last turn changed", duringTask: false, run: (ctx) => ctx.undoFlow.undo() },
  { name: "redo", description: "reverse the last /undo", duringTask: false, run: (ctx) => ctx.undoFlow.redo() },
  { name: "copy", description: "copy the latest answer to the clipboard", duringTask: true, run: (ctx) => ctx.copyLastAnswer() },
  { name: "skills", description: "list the skills the agent can use", duringTask: true, run: (ctx) => void ctx.submit({ type: "list_skills" }) },
  {
    name: "mcp",
    description: "list the MCP servers, their tools and auth; /mcp login NAME signs in",
    argumentHint: "[login NAME]",
    duringTask: true,
    run(ctx, args) {
      const words = args.trim().split(/\s+/).filter(Boolean);
      if (words.length === 0) return ctx.listMcp();
      if (words[0] === "login" && words.length === 2) return void ctx.submit({ type: "mcp_sign_in", server: words[1] ?? "" });
      ctx.error("Usage: /mcp, or /mcp login NAME");
    },
  },
  {
    name: "agent",
    description: "watch a sub-agent's conversation, or go back to yours",
    duringTask: true,
    async run(ctx) {
      const { agents, watching, elsewhere } = ctx.subAgents();
      if (elsewhere) {
        ctx.print("Sub-agents", ["Sub-agents run on the app-server: their activity shows in your conversation, but their own conversations cannot be opened from a remote session."]);
        return;
      }
      if (agents.length === 0 && watching === null) {
        ctx.print("Sub-agents", ["This conversation has no sub-agents yet. The agent starts them when you ask it to delegate work."]);
        return;
      }
      const items: SelectItem[] = [
        { value: "", label: "main thread", description: watching === null ? "shown now" : "your conversation" },
        ...agents.map((a) => ({ value: a.threadId, label: a.name, description: `${a.status}${a.threadId === watching ? " · shown now" : ""}` })),
      ];
      const picked = await ctx.pick("Sub-agents", items);
      if (!picked) return;
      ctx.watchAgent(agents.some((a) => a.threadId === picked.value) ? picked.value : null);
    },
  },
  { name: "hooks", description: "review, trust and turn lifecycle hooks on or off", duringTask: true, run: (ctx) => ctx.openHooks() },
  RENAME_COMMAND,
  GOAL_COMMAND,
  PLAN_COMMAND,
  { name: "quit", description: "exit codex-ts", duringTask: true, run: (ctx) => ctx.quit() },
  { name: "exit", description: "exit codex-ts", duringTask: true, run: (ctx) => ctx.quit() },
];

async function pickReviewTarget(ctx: SlashContext): Promise<ReviewTarget | null> {
  const kind = await ctx.pick("Review", [
    { value: "uncommitted", label: "Uncommitted changes", description: "staged, unstaged and untracked" },
    { value: "base", label: "Against a base branch", description: "what this branch changes" },
    { value: "commit", label: "A commit", description: "the changes of one commit" },
    { value: "custom", label: "Custom instructions", description: "say what to look at" },
  ]);
  switch (kind?.value) {
    case "uncommitted":
      return { type: "uncommittedChanges" };
    case "base": {
      const branch = await ctx.ask("Base branch (e.g. main)");
      return branch?.trim() ? { type: "baseBranch", branch: branch.trim() } : null;
    }
    case "commit": {
      const sha = await ctx.ask("Commit (SHA or ref)");
      return sha?.trim() ? { type: "commit", sha: sha.trim() } : null;
    }
    case "custom": {
      const instructions = await ctx.ask("What should the review look at?");
      return instructions?.trim() ? { type: "custom", instructions: instructions.trim() } : null;
    }
    default:
      return null;
  }
}

export interface CustomPromptInfo {
  name: string;
  content: string;
  description?: string;
  argument_hint?: string;
}

/** `/prompts:NAME args`: the prompt file's text with its placeholders filled, sent as a user turn. */
export function promptCommand(p: CustomPromptInfo): SlashCommand {
  return {
    name: `prompts:${p.name}`,
    description: p.description ?? "custom prompt",
    duringTask: false,
    ...(p.argument_hint ? { argumentHint: p.argument_hint } : {}),
    run: (ctx, args) => ctx.sendUserText(expandPrompt(p.content, args)),
  };
}

/** Splits "/name rest" into the command's name and its arguments; null when not a slash command. */
export function parseSlash(text: string): { name: string; args: string } | null {
  const m = /^\/(\S+)(?:\s+([\s\S]*))?$/.exec(text.trim());
  return m ? { name: m[1] ?? "", args: m[2] ?? "" } : null;
}
