/**
 * PreToolUse and PostToolUse for the hosted web search (`tool_name: "web_search"`, the search's
 * action as `tool_input`), which the reference does not run hooks for. The provider runs the
 * search inside its response, so the hooks hear of it once it is done: a PreToolUse deny cannot
 * undo it, but the model is told not to rely on it; hooks' context reaches the model either way.
 */
import type { EventMsg } from "../protocol/events.js";
import type { ResponseItem } from "../protocol/items.js";
import { webSearchActionDetail } from "../protocol/web-search.js";
import { hookTurn } from "../tools/tool-hooks.js";
import type { TurnContext } from "../tools/turn-context.js";

export async function webSearchHooks(items: readonly ResponseItem[], turn: TurnContext, emit: (msg: EventMsg) => void, note: (text: string) => void): Promise<void> {
  const hooks = turn.services.hooks;
  if (!hooks || !(hooks.has("PreToolUse") || hooks.has("PostToolUse"))) return;
  let index = 0;
  for (const item of items) {
    if (item.type !== "web_search_call" || !item.action) continue;
    const call = { toolName: "web_search", toolInput: item.action, toolUseId: item.id ?? `web_search_${turn.turnId}_${index++}` };
    const at = hookTurn(turn, emit);
    if (hooks.has("PreToolUse")) {
      const pre = await hooks.preToolUse(at, call);
      pre.contexts.forEach(note);
      if (pre.blockedMessage !== null) {
        note(`${pre.blockedMessage}. The provider had already run this search; do not use its results.`);
        continue;
      }
    }
    if (hooks.has("PostToolUse")) {
      const post = await hooks.postToolUse(at, call, { query: webSearchActionDetail(item.action), action: item.action });
      post.contexts.forEach(note);
    }
  }
}
