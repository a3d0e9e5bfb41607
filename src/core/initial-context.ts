/**
 * The items that open every conversation (after the base instructions): the permissions the
 * model works under, config's developer instructions, the namespaces tool_search can find when
 * some are known from the start (the collab tools' for gpt-5.5, as the reference sends them), the
 * project's AGENTS.md, and the environment (cwd, shell, policies). When a later turn changes cwd or policies, the model is
 * told with fresh copies of the affected items rather than by rewriting history.
 */
import type { ContentItem, ResponseItem } from "../protocol/items.js";
import { developerText, userText } from "../protocol/items.js";
import { agentsMdMessage, environmentContext, permissionsInstructions } from "./prompts.js";
import { collaborationModeText } from "./collaboration-mode.js";
import type { SessionOptions, SessionSettings } from "./session-options.js";
import type { FileSystemRules } from "../sandbox/fs-rules.js";
import { basename } from "node:path";

export function initialContext(settings: SessionSettings, options: SessionOptions, deferredToolsNote: string | null = null): ResponseItem[] {
  const developerParts: ContentItem[] = [
    { type: "input_text", text: permissionsInstructions(settings.sandboxPolicy, settings.approvalPolicy, settings.cwd, options.fileSystemRules) },
  ];
  if (options.developerInstructions) developerParts.push({ type: "input_text", text: options.developerInstructions });
  if (deferredToolsNote !== null) developerParts.push({ type: "input_text", text: deferredToolsNote });
  const items: ResponseItem[] = [{ type: "message", role: "developer", content: developerParts }];
  if (options.userInstructions) items.push(userText(agentsMdMessage(settings.cwd, options.userInstructions)));
  items.push(userText(environmentFor(settings, options.userShell)));
  return items;
}

export function settingsUpdateItems(previous: SessionSettings, next: SessionSettings, fileSystemRules?: FileSystemRules): ResponseItem[] {
  const items: ResponseItem[] = [];
  const mode = next.collaborationMode ?? "default";
  if ((previous.collaborationMode ?? "default") !== mode) items.push(developerText(collaborationModeText(mode)));
  if (previous.sandboxPolicy !== next.sandboxPolicy || previous.approvalPolicy !== next.approvalPolicy) {
    items.push({
      type: "message",
      role: "developer",
      content: [{ type: "input_text", text: permissionsInstructions(next.sandboxPolicy, next.approvalPolicy, next.cwd, fileSystemRules) }],
    });
  }
  if (
    previous.cwd !== next.cwd ||
    previous.sandboxPolicy !== next.sandboxPolicy ||
    previous.approvalPolicy !== next.approvalPolicy
  ) {
    items.push(userText(environmentFor(next, undefined)));
  }
  return items;
}

/** The environment context alone (cwd, shell, policies): all a reviewer's history starts with. */
export function environmentItem(settings: SessionSettings, userShell: string | undefined): ResponseItem {
  return userText(environmentFor(settings, userShell));
}

function environmentFor(settings: SessionSettings, userShell: string | undefined): string {
  const policy = settings.sandboxPolicy;
  return environmentContext({
    cwd: settings.cwd,
    approvalPolicy: settings.approvalPolicy,
    sandboxMode: policy.type,
    networkAccess: policy.type === "danger-full-access" || (policy.type === "workspace-write" && policy.network_access) ? "enabled" : "restricted",
    shell: basename(userShell ?? process.env.SHELL ?? "bash"),
    ...(policy.type === "workspace-write" ? { writableRoots: [settings.cwd, ...policy.writable_roots] } : {}),
  });
}
