/**
 * Tool definitions as they go out on the wire. Names, parameter names, types, enums, `required`
 * lists and tool order follow what the reference offers each model family; the descriptions are
 * our own wording. Schema keys are emitted in a fixed order (type, description, properties/items,
 * enum, required, additionalProperties) so request bodies stay byte-stable across turns.
 */
import type { ModelInfo } from "../model/catalog.js";
import type { WebSearchSettings } from "../protocol/web-search.js";
import { multiAgentNamespace, type MultiAgentOffer } from "./multi-agent-specs.js";
import { toolSearchSpec } from "./tool-search.js";
import { APPLY_PATCH_LARK_GRAMMAR, PATCH_FORMAT_SUMMARY, type JsonSchema, type ToolSpec } from "../protocol/tool-spec.js";

// ---------------------------------------------------------------------------------------------
// Schema helpers

function str(description: string, values?: string[]): JsonSchema {
  return values ? { type: "string", description, enum: values } : { type: "string", description };
}
function num(description: string): JsonSchema {
  return { type: "number", description };
}
function bool(description: string): JsonSchema {
  return { type: "boolean", description };
}
function arr(description: string, items: JsonSchema): JsonSchema {
  return { type: "array", description, items };
}
/** A closed object; `properties` must be given in alphabetical order. */
function obj(properties: Record<string, JsonSchema>, required: string[], description?: string): JsonSchema {
  const schema: JsonSchema = { type: "object" };
  if (description !== undefined) schema.description = description;
  schema.properties = properties;
  schema.required = required;
  schema.additionalProperties = false;
  return schema;
}
function fn(name: string, description: string, parameters: JsonSchema): ToolSpec {
  return { type: "function", name, description, strict: false, parameters };
}

// ---------------------------------------------------------------------------------------------
// Shared parameter definitions

const JUSTIFICATION = str(
  "Only with `require_escalated`: a one-line question shown to the user explaining why the command needs to leave the sandbox.",
);
const PREFIX_RULE = arr(
  "Only with `require_escalated`: a command prefix the user may approve once for all future matching commands, e.g. [\"npm\", \"test\"].",
  { type: "string" },
);
const SANDBOX_PERMISSIONS = str(
  "`use_default` (the default) runs inside the sandbox; `require_escalated` asks to run without it.",
  ["use_default", "require_escalated"],
);
const WORKDIR = str("Directory to run in. Defaults to the session's working directory.");
const TIMEOUT_MS = num("Kill the command after this many milliseconds.");
const MAX_OUTPUT_TOKENS = num("Cap on returned output, in tokens (10000 by default).");
const YIELD_TIME_MS = num("How long to wait for output before returning, in ms (10000 by default; 250-30000).");

// ---------------------------------------------------------------------------------------------
// Tools

function execCommandTool(): ToolSpec {
  return fn(
    "exec_command",
    "Start a shell command (optionally in a PTY). Returns its output once it exits or the yield time passes; a command still running returns a session_id for write_stdin.",
    obj(
      {
        cmd: str("The command line to run in the shell."),
        justification: JUSTIFICATION,
        login: bool("Whether to start a login shell (default true)."),
        max_output_tokens: MAX_OUTPUT_TOKENS,
        prefix_rule: PREFIX_RULE,
        sandbox_permissions: SANDBOX_PERMISSIONS,
        shell: str("Shell executable to use instead of the user's default shell."),
        tty: bool("Allocate a pseudo-terminal (needed for interactive programs). Defaults to false."),
        workdir: WORKDIR,
        yield_time_ms: YIELD_TIME_MS,
      },
      ["cmd"],
    ),
  );
}

function writeStdinTool(): ToolSpec {
  return fn(
    "write_stdin",
    "Send input to a command started by exec_command that is still running, then return what it printed since.",
    obj(
      {
        chars: str("Text to type into the session. Leave empty to just collect new output."),
        max_output_tokens: MAX_OUTPUT_TOKENS,
        session_id: num("The session_id returned by exec_command."),
        yield_time_ms: YIELD_TIME_MS,
      },
      ["session_id"],
    ),
  );
}

function shellTool(): ToolSpec {
  return fn(
    "shell",
    'Run a program and return its output. `command` is an argv array passed to execvp; for shell syntax use ["bash", "-lc", "<script>"].',
    obj(
      {
        command: arr("The program and its arguments.", { type: "string" }),
        justification: JUSTIFICATION,
        prefix_rule: PREFIX_RULE,
        sandbox_permissions: SANDBOX_PERMISSIONS,
        timeout_ms: TIMEOUT_MS,
        workdir: WORKDIR,
      },
      ["command"],
    ),
  );
}

function shellCommandTool(): ToolSpec {
  return fn(
    "shell_command",
    "Run a script in the user's default shell and return its output.",
    obj(
      {
        command: str("The script to run."),
        justification: JUSTIFICATION,
        login: bool("Whether to run it as a login shell (default true)."),
        prefix_rule: PREFIX_RULE,
        sandbox_permissions: SANDBOX_PERMISSIONS,
        timeout_ms: TIMEOUT_MS,
        workdir: WORKDIR,
      },
      ["command"],
    ),
  );
}

function updatePlanTool(): ToolSpec {
  return fn(
    "update_plan",
    "Record or revise the task plan shown to the user. Send the full list of steps each time; keep at most one step in_progress.",
    obj(
      {
        explanation: str("Optional note on why the plan changed."),
        plan: arr(
          "The steps, in order.",
          obj(
            {
              status: str("Where the step stands.", ["pending", "in_progress", "completed"]),
              step: str("Short description of the step."),
            },
            ["step", "status"],
          ),
        ),
      },
      ["plan"],
    ),
  );
}

function requestUserInputTool(): ToolSpec {
  const option = obj(
    {
      description: str("One sentence on what choosing this option implies."),
      label: str("The option's text, a few words."),
    },
    ["label", "description"],
  );
  const question = obj(
    {
      header: str("Very short title for the question (12 characters or fewer)."),
      id: str("snake_case key used to match the answer to the question."),
      options: arr(
        'Two or three mutually exclusive choices, recommended one first with "(Recommended)" after its label. The user can always answer freely, so do not add an "Other" choice.',
        option,
      ),
      question: str("The question itself, in one sentence."),
    },
    ["id", "header", "question", "options"],
  );
  return fn(
    "request_user_input",
    "Ask the user one to three short multiple-choice questions and wait for the answers (returned as JSON keyed by question id). If nobody can answer, you are told so at once: then decide yourself.",
    obj({ questions: arr("The questions to ask; usually one, never more than three.", question) }, ["questions"]),
  );
}

function applyPatchFreeformTool(): ToolSpec {
  return {
    type: "custom",
    name: "apply_patch",
    description:
      "Create, change, delete or move files by sending a patch. The input is raw patch text (not JSON) that must follow the grammar.",
    format: { type: "grammar", syntax: "lark", definition: APPLY_PATCH_LARK_GRAMMAR },
  };
}



function applyPatchFunctionTool(): ToolSpec {
  return fn(
    "apply_patch",
    PATCH_FORMAT_SUMMARY,
    obj({ input: str("The complete patch, from *** Begin Patch to *** End Patch.") }, ["input"]),
  );
}

function viewImageTool(): ToolSpec {
  return fn(
    "view_image",
    "Look at an image file on the local disk, e.g. a screenshot or a rendered chart.",
    obj({ path: str("Path to the image file.") }, ["path"]),
  );
}

function getGoalTool(): ToolSpec {
  return fn("get_goal", "Read this conversation's goal: its objective, status, token budget and what is used of it.", { type: "object", properties: {}, required: [], additionalProperties: false });
}

function createGoalTool(): ToolSpec {
  return fn(
    "create_goal",
    "Set a goal for this conversation, which you then keep working on across turns until it is done. Only when the user (or the instructions) ask for a goal, never on your own. Fails while an unfinished goal exists.",
    obj(
      {
        objective: str("What the goal is, concretely: the outcome that makes it complete."),
        token_budget: { type: "integer", description: "Tokens the goal may use in all. Only when the user gives a budget." },
      },
      ["objective"],
    ),
  );
}

function updateGoalTool(): ToolSpec {
  return fn(
    "update_goal",
    "Change the goal's status. `complete` once the objective is met and nothing required is left; `blocked` when the same obstacle stopped you three goal turns in a row and only the user can unblock it; `paused` only when the user asks to pause. Resuming and budgets belong to the user.",
    obj({ status: str("The goal's new status.", ["complete", "blocked", "paused"]) }, ["status"]),
  );
}

/**
 * The hosted search tool, with the reference's fields in its order: `external_web_access` is
 * off only in cached mode, `indexed` adds `indexed_web_access`, `[tools.web_search]` adds the
 * domain filter, location and context size, and models that take images get both content types.
 */
export function webSearchTool(settings: WebSearchSettings, images: boolean): ToolSpec {
  const loc = settings.location;
  return {
    type: "web_search",
    external_web_access: settings.mode !== "cached",
    ...(settings.mode === "indexed" ? { indexed_web_access: true } : {}),
    ...(settings.allowedDomains ? { filters: { allowed_domains: settings.allowedDomains } } : {}),
    ...(loc ? { user_location: { type: "approximate" as const, ...loc } } : {}),
    ...(settings.contextSize ? { search_context_size: settings.contextSize } : {}),
    ...(images ? { search_content_types: ["text", "image"] } : {}),
  };
}

/** Built-in tools that depend on the thread rather than the model. */
export interface BuiltinToolOptions {
  /**
   * The collab tools (the `multi_agent_v1` namespace), for a thread that may start sub-agents;
   * absent or null when it may not (feature off, or the thread is at the maximum depth).
   */
  multiAgent?: MultiAgentOffer | null;
}

/**
 * The tools offered to `model`, in the order the reference sends them: command tools, plan,
 * user questions, apply_patch, view_image, the collab namespace, the goal tools, tool_search,
 * then hosted web search.
 */
export function buildToolSpecs(model: ModelInfo, options: BuiltinToolOptions = {}): ToolSpec[] {
  const specs: ToolSpec[] = [];
  switch (model.shellTool) {
    case "exec_command":
      specs.push(execCommandTool(), writeStdinTool());
      break;
    case "shell":
      specs.push(shellTool());
      break;
    case "shell_command":
      specs.push(shellCommandTool());
      break;
    case null:
      break; // features.shell_tool = false: no command tool at all
  }
  if (model.planTool) specs.push(updatePlanTool());
  if (model.requestUserInputTool) specs.push(requestUserInputTool());
  if (model.applyPatchTool === "freeform") specs.push(applyPatchFreeformTool());
  else if (model.applyPatchTool === "function") specs.push(applyPatchFunctionTool());
  if (model.viewImageTool) specs.push(viewImageTool());
  // The collab namespace: offered directly here; a family with tool_search gets it through its
  // catalog instead (buildTools moves it there), as the reference does for gpt-5.5.
  if (options.multiAgent) specs.push(multiAgentNamespace(options.multiAgent));
  if (model.goalTools) specs.push(getGoalTool(), createGoalTool(), updateGoalTool());
  if (model.toolSearch) specs.push(toolSearchSpec());
  if (model.webSearch) specs.push(webSearchTool(model.webSearch, model.webSearchImages));
  return specs;
}

/** The Chat Completions wire only knows functions: custom tools become functions taking {input: string}; web_search is dropped. */
