/**
 * Turn methods: start (with per-turn settings that stay for later turns, as the reference's do;
 * input sent while a turn runs steers it), steer, interrupt, a review as a turn, and the user's
 * own shell command.
 */
import { invalidRequest } from "../../app-server-protocol/jsonrpc.js";
import type { V2SandboxPolicy, V2UserInput } from "../../app-server-protocol/v2.js";
import { approvalFromV2, effortFromV2, inputFromV2, sandboxFromV2 } from "../../app-server-protocol/convert.js";
import { COLLABORATION_MODES, type TurnOverrides, type UserInput } from "../../protocol/ops.js";
import { REASONING_SUMMARIES } from "../../protocol/policy.js";
import type { ReviewTarget } from "../../protocol/review.js";
import type { Params } from "../params.js";
import type { Method, MethodContext } from "../server.js";

type Json = Record<string, unknown>;
const isObject = (v: unknown): v is Json => typeof v === "object" && v !== null && !Array.isArray(v);
const isString = (v: unknown): v is string => typeof v === "string";

function userInput(params: Params): UserInput[] {
  const items = params.array("input").map((raw, i): V2UserInput => {
    if (!isObject(raw)) throw invalidRequest(`Invalid request: input[${i}] must be an object`);
    switch (raw.type) {
      case "text":
        if (!isString(raw.text)) throw invalidRequest(`Invalid request: input[${i}].text must be a string`);
        return { type: "text", text: raw.text, text_elements: [] };
      case "image":
        if (!isString(raw.url)) throw invalidRequest(`Invalid request: input[${i}].url must be a string (an uploaded fileId is not supported)`);
        return { type: "image", url: raw.url };
      case "localImage":
        if (!isString(raw.path)) throw invalidRequest(`Invalid request: input[${i}].path must be a string`);
        return { type: "localImage", path: raw.path };
      case "skill":
      case "mention":
        if (!isString(raw.name) || !isString(raw.path)) throw invalidRequest(`Invalid request: input[${i}] needs a name and a path`);
        return { type: raw.type, name: raw.name, path: raw.path };
      default:
        throw invalidRequest(`Invalid request: input[${i}] has an unsupported type ${JSON.stringify(raw.type)} (text, image, localImage, skill or mention)`);
    }
  });
  const input = inputFromV2(items);
  if (input.length === 0) throw invalidRequest("Invalid request: `input` must hold at least one text or image");
  return input;
}

function sandboxPolicy(raw: unknown): V2SandboxPolicy {
  if (!isObject(raw)) throw invalidRequest("Invalid request: `sandboxPolicy` must be an object");
  switch (raw.type) {
    case "dangerFullAccess":
      return { type: "dangerFullAccess" };
    case "readOnly":
      return { type: "readOnly", networkAccess: false };
    case "workspaceWrite":
      return {
        type: "workspaceWrite",
        writableRoots: Array.isArray(raw.writableRoots) ? raw.writableRoots.filter(isString) : [],
        networkAccess: raw.networkAccess === true,
        excludeTmpdirEnvVar: raw.excludeTmpdirEnvVar === true,
        excludeSlashTmp: raw.excludeSlashTmp === true,
      };
    default:
      throw invalidRequest(`Invalid request: sandboxPolicy type ${JSON.stringify(raw.type)} is not supported (dangerFullAccess, readOnly or workspaceWrite)`);
  }
}

/** The settings a turn/start may change, as the core's overrides (they stay for later turns). */
function turnOverrides(params: Params): TurnOverrides {
  const overrides: TurnOverrides = {};
  const cwd = params.optionalString("cwd");
  if (cwd !== undefined) overrides.cwd = cwd;
  const model = params.optionalString("model");
  if (model !== undefined) overrides.model = model;
  if (params.has("approvalPolicy")) {
    const policy = approvalFromV2(params.raw("approvalPolicy"));
    if (policy === null) throw invalidRequest(`Invalid request: approvalPolicy ${JSON.stringify(params.raw("approvalPolicy"))} is not supported (untrusted, on-failure, on-request or never)`);
    overrides.approval_policy = policy;
  }
  if (params.has("sandboxPolicy")) overrides.sandbox_policy = sandboxFromV2(sandboxPolicy(params.raw("sandboxPolicy")));
  if (params.has("effort")) {
    const effort = effortFromV2(params.raw("effort"));
    if (effort === null) throw invalidRequest(`Invalid request: unknown effort ${JSON.stringify(params.raw("effort"))}`);
    overrides.effort = effort;
  }
  const summary = params.optionalEnum("summary", REASONING_SUMMARIES);
  if (summary !== undefined) overrides.summary = summary;
  // The reference's experimental `collaborationMode` ({mode, settings}); plan mode is its `plan`.
  const mode = params.optionalObject("collaborationMode")?.mode;
  if (mode !== undefined) {
    const known = COLLABORATION_MODES.find((m) => m === mode);
    if (!known) throw invalidRequest(`Invalid request: unknown collaborationMode.mode ${JSON.stringify(mode)} (plan or default)`);
    overrides.collaboration_mode = known;
  }
  return overrides;
}

const firstText = (input: UserInput[]): string => input.flatMap((i) => (i.type === "text" ? [i.text] : [])).join("\n");

const startTurn: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const input = userInput(params);
  const overrides = turnOverrides(params);
  server.notePrompt(live.threadId, firstText(input));
  const running = live.activeTurn;
  if (running) {
    // Input while a turn runs steers it, as the reference's turn/start does.
    live.submit({ type: "user_input", items: input });
    return { turn: running };
  }
  const outputSchema = params.raw("outputSchema");
  const turn = await live.startTurn({ type: "user_turn", items: input, ...overrides, ...(outputSchema !== undefined && outputSchema !== null ? { final_output_json_schema: outputSchema } : {}) });
  return { turn };
};

const steer: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const expected = params.string("expectedTurnId");
  const input = userInput(params);
  if (live.activeTurnId !== expected) throw invalidRequest(live.activeTurnId === null ? "no active turn to steer" : `expected turn ${expected}, but turn ${live.activeTurnId} is active`);
  live.submit({ type: "user_input", items: input });
  return { turnId: expected };
};

const interrupt: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const turnId = params.string("turnId");
  if (live.activeTurnId !== turnId) throw invalidRequest(live.activeTurnId === null ? `turn ${turnId} is not in progress` : `turn ${turnId} is not the active turn (${live.activeTurnId} is)`);
  const ended = live.turnEnded();
  live.submit({ type: "interrupt" });
  await ended;
  return {};
};

function reviewTarget(raw: unknown): ReviewTarget {
  if (!isObject(raw)) throw invalidRequest("Invalid request: missing field `target`");
  switch (raw.type) {
    case "uncommittedChanges":
      return { type: "uncommittedChanges" };
    case "baseBranch":
      if (!isString(raw.branch)) throw invalidRequest("Invalid request: target.branch must be a string");
      return { type: "baseBranch", branch: raw.branch };
    case "commit":
      if (!isString(raw.sha)) throw invalidRequest("Invalid request: target.sha must be a string");
      return { type: "commit", sha: raw.sha, ...(isString(raw.title) ? { title: raw.title } : {}) };
    case "custom":
      if (!isString(raw.instructions)) throw invalidRequest("Invalid request: target.instructions must be a string");
      return { type: "custom", instructions: raw.instructions };
    default:
      throw invalidRequest(`Invalid request: unknown review target ${JSON.stringify(raw.type)}`);
  }
}

const review: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const delivery = params.optionalString("delivery");
  if (delivery !== undefined && delivery !== "inline") throw invalidRequest(`review delivery ${JSON.stringify(delivery)} is not supported by codex-ts app-server (only "inline")`);
  const target = reviewTarget(params.raw("target"));
  if (live.activeTurnId !== null) throw invalidRequest("a turn is in progress; wait for it or interrupt it before starting a review");
  const turn = await live.startTurn({ type: "review", review_request: { target } });
  return { turn, reviewThreadId: live.threadId };
};

const shellCommand: Method = async ({ server }, params) => {
  const live = server.requireThread(params.string("threadId"));
  const command = params.string("command");
  if (command.trim() === "") throw invalidRequest("Invalid request: `command` must not be empty");
  live.submit({ type: "run_user_shell_command", command });
  return {};
};

export const turnMethods: Record<string, (ctx: MethodContext, params: Params) => Promise<unknown>> = {
  "turn/start": startTurn,
  "turn/steer": steer,
  "turn/interrupt": interrupt,
  "review/start": review,
  "thread/shellCommand": shellCommand,
};
