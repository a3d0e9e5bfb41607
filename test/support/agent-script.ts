/**
 * A scripted model for a thread and the sub-agents it starts: requests of the user's thread take
 * the parent's turns in order, and each sub-agent's request (known by its `x-openai-subagent`
 * header) is answered by a function of its task (its first message) and the request. Turns of
 * the parent may be functions of the request too, to use ids only known at run time (the agent
 * ids spawn_agent answered with). Works on both wires.
 */
import { startModelServer, text, turn, type JsonObject, type ModelServer, type ModelServerOptions, type RecordedRequest, type ScriptedOutput, type ScriptedTurn } from "./model-server.js";

export const COLLAB_NAMESPACE = "multi_agent_v1";

export type ParentTurn = ScriptedTurn | ((request: RecordedRequest) => ScriptedTurn);

export interface AgentScript {
  parent: ParentTurn[];
  /** Answers a sub-agent's request; `task` is the text of its first (non-context) user message. */
  child: (task: string, request: RecordedRequest) => ScriptedTurn;
}

export function startAgentServer(script: AgentScript, options: Omit<ModelServerOptions, "respond"> = {}): Promise<ModelServer> {
  let parentTurns = 0;
  return startModelServer([], {
    ...options,
    respond: (request) => {
      if (isSubAgentRequest(request)) return script.child(taskOf(request), request);
      const next = script.parent[parentTurns++];
      if (next === undefined) return { outputs: [{ type: "message", text: `(the script has no turn ${parentTurns} for the parent)` }] };
      return typeof next === "function" ? next(request) : next;
    },
  });
}

/** The reference's capture: spawn a child, wait for its answer, close it, finish (call ids as captured). */
export const SPAWN_WAIT_CLOSE: AgentScript = {
  parent: [
    turn(collabCall("spawn_agent", { message: "list the test files" }, "call_0002")),
    (r) => turn(collabCall("wait_agent", { targets: [spawnedIn(r)[0]] }, "call_0005")),
    (r) => turn(collabCall("close_agent", { target: spawnedIn(r)[0] }, "call_0010")),
    turn(text("The helper found the tests.")),
  ],
  child: () => turn(text("tests/a.test.ts and tests/b.test.ts")),
};

/** A call of one of the collab tools, inside their namespace as the Responses API sends it. */
export function collabCall(name: string, args: unknown, callId: string): ScriptedOutput {
  return { type: "function_call", name, arguments: args, callId, namespace: COLLAB_NAMESPACE };
}

export function isSubAgentRequest(request: RecordedRequest): boolean {
  return request.headers["x-openai-subagent"] !== undefined;
}

/** The outputs the model got back so far in this request, by call id (either wire). */
export function outputsIn(request: RecordedRequest): Map<string, string> {
  const outputs = new Map<string, string>();
  for (const item of request.body.input ?? []) {
    if (item.type === "function_call_output" && typeof item.call_id === "string") outputs.set(item.call_id, String(item.output));
  }
  for (const message of request.body.messages ?? []) {
    if (message.role === "tool" && typeof message.tool_call_id === "string") outputs.set(message.tool_call_id, String(message.content));
  }
  return outputs;
}

/** The agent ids spawn_agent answered with so far in this request, in order. */
export function spawnedIn(request: RecordedRequest): string[] {
  const ids: string[] = [];
  for (const output of outputsIn(request).values()) {
    try {
      const parsed = JSON.parse(output) as { agent_id?: unknown };
      if (typeof parsed.agent_id === "string") ids.push(parsed.agent_id);
    } catch {
      // not a spawn's answer
    }
  }
  return ids;
}

/** The user messages' texts of a request (either wire), context included. */
export function userTextsIn(request: RecordedRequest): string[] {
  const texts: string[] = [];
  for (const item of request.body.input ?? []) {
    if (item.type === "message" && item.role === "user") texts.push(contentText(item.content));
  }
  for (const message of request.body.messages ?? []) if (message.role === "user") texts.push(contentText(message.content));
  return texts;
}

function taskOf(request: RecordedRequest): string {
  return userTextsIn(request).find((t) => !t.trimStart().startsWith("<") && !t.startsWith("# AGENTS.md")) ?? "";
}

function contentText(content: unknown): string {
  if (typeof content === "string") return content;
  if (!Array.isArray(content)) return "";
  return (content as JsonObject[]).map((part) => (typeof part.text === "string" ? part.text : "")).join("");
}
