/**
 * The session options the config determines, shared by every thread the thread manager opens;
 * it adds what is each thread's own (recording, resume, instruction overrides).
 */
import { discoverSkills, skillsInstructions } from "../config/skills.js";
import { findProjectRoot } from "../util/project-root.js";
import { modelInfoFor } from "../model/catalog.js";
import type { Config } from "../config/load-config.js";
import type { ModelClient } from "../model/prompt.js";
import type { SessionOptions, UndoOptions } from "./session-options.js";
import { DEFAULT_LIMITS } from "../undo/exclusions.js";
import { HookRegistry } from "../hooks/registry.js";

export function sessionOptionsFromConfig(config: Config, client: ModelClient, hookTrustAdvice?: string): SessionOptions {
  const markers = config.projectRootMarkers.length > 0 ? config.projectRootMarkers : [".git"];
  const hooks = new HookRegistry(config.hooks);
  const found = discoverSkills({ codexHome: config.codexHome, cwd: config.cwd, projectRoot: findProjectRoot(config.cwd, markers) ?? config.cwd });
  const skillsSection = skillsInstructions(found.skills);
  return {
    settings: {
      model: config.model,
      modelProviderId: config.modelProviderId,
      cwd: config.cwd,
      approvalPolicy: config.approvalPolicy,
      sandboxPolicy: config.sandboxPolicy,
      reasoningEffort: config.reasoningEffort,
      reasoningSummary: config.reasoningSummary,
      verbosity: config.verbosity,
      planModeReasoningEffort: config.planModeReasoningEffort,
    },
    client,
    streamMaxRetries: config.provider.streamMaxRetries,
    developerInstructions: config.developerInstructions,
    // The skills list is part of the user instructions, after AGENTS.md, as the reference sends it.
    userInstructions: [config.userInstructions, skillsSection].filter((t): t is string => t !== null).join("\n\n") || null,
    skills: found.skills,
    codexHome: config.codexHome,
    reviewModel: config.reviewModel,
    compactPrompt: config.compactPrompt,
    modelSettings: {
      contextWindow: config.modelContextWindow,
      autoCompactTokenLimit: config.modelAutoCompactTokenLimit,
      toolOutputTokenLimit: config.toolOutputTokenLimit,
      supportsReasoningSummaries: config.modelSupportsReasoningSummaries,
      features: config.features,
      webSearch: config.webSearch,
      hostedTools: config.provider.wireApi === "responses",
    },
    // The reference compacts server-side for OpenAI's own provider; others get a local summary.
    remoteCompaction: config.features.remote_compaction !== false && config.provider.id === "openai" && config.provider.wireApi === "responses",
    showRawAgentReasoning: config.showRawAgentReasoning,
    baseInstructionsOverride: config.baseInstructionsOverride,
    shellEnvironmentPolicy: config.shellEnvironmentPolicy,
    fileSystemRules: config.fileSystemRules,
    startupWarnings: [
      ...config.warnings,
      ...unknownModelWarning(config.model),
      ...found.errors.map((e) => `skill ${e.path} was not loaded: ${e.message}`),
      ...hooks.startupWarnings(hookTrustAdvice),
    ],
    hooks,
    notify: config.notify,
    promptHistory: { codexHome: config.codexHome, settings: config.history },
    mcpServers: config.mcpServers,
    ...(config.undo.enabled ? { undo: undoOptions(config) } : {}),
  };
}

/** `[ghost_snapshot]`'s limits, with undo's defaults where unset. */
function undoOptions(config: Config): UndoOptions {
  return {
    limits: {
      largeFileBytes: config.undo.largeFileBytes ?? DEFAULT_LIMITS.largeFileBytes,
      largeDirFiles: config.undo.largeDirFiles ?? DEFAULT_LIMITS.largeDirFiles,
    },
    quiet: config.undo.disableWarnings,
  };
}

/** One warning when the catalog does not know the model, naming the defaults it gets. */
function unknownModelWarning(model: string): string[] {
  const info = modelInfoFor(model);
  if (info.family !== "unknown") return [];
  return [
    `Model "${model}" is not in codex-ts's catalog; using defaults for it: the \`${info.shellTool ?? "no"}\` command tool, ${info.applyPatchTool ?? "no"} apply_patch, no reasoning settings, an unknown context window.`,
  ];
}
