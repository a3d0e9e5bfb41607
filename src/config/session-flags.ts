/**
 * The command-line flags every command that starts a session shares (`exec`, the interactive
 * UI), turned into the config loader's input in one place, so both read them the same way.
 */
import type { CliConfigInput } from "./load-config.js";
import type { AskForApproval, SandboxMode } from "../protocol/policy.js";

export interface SessionFlags {
  /** `-c key=value`, in order. */
  config: string[];
  profile?: string;
  model?: string;
  sandbox?: SandboxMode;
  /** `-P NAME`: a permission profile (`[permissions.NAME]` or a built-in). */
  permissions?: string;
  askForApproval?: AskForApproval;
  fullAuto?: boolean;
  dangerouslyBypassApprovalsAndSandbox?: boolean;
  addDir: string[];
  oss?: boolean;
  localProvider?: string;
  enable?: string[];
  disable?: string[];
  /** `--search`: live web search for this run. */
  search?: boolean;
  /** `--dangerously-bypass-hook-trust`: enabled hooks run without being trusted. */
  dangerouslyBypassHookTrust?: boolean;
  /** `--strict-config`: an unknown key in any config layer is an error. */
  strictConfig?: boolean;
  /** `--ignore-user-config`: leave `$CODEX_HOME/config.toml` unread. */
  ignoreUserConfig?: boolean;
  /** `--ignore-rules`: load no `.rules` files. */
  ignoreRules?: boolean;
}

/** `--full-auto` and the bypass flag stand for a sandbox mode and an approval policy. */
export function configInputFromFlags(cwd: string, flags: SessionFlags): CliConfigInput {
  const bypass = flags.dangerouslyBypassApprovalsAndSandbox === true;
  return {
    cwd,
    overrides: flags.config,
    profile: flags.profile,
    model: flags.model,
    sandboxMode: bypass ? "danger-full-access" : flags.fullAuto ? "workspace-write" : flags.sandbox,
    permissionProfile: flags.permissions,
    approvalPolicy: bypass ? "never" : flags.fullAuto ? "on-request" : flags.askForApproval,
    addDirs: flags.addDir,
    oss: flags.oss,
    localProvider: flags.localProvider,
    enable: flags.enable,
    disable: flags.disable,
    search: flags.search,
    bypassHookTrust: flags.dangerouslyBypassHookTrust === true,
    strict: flags.strictConfig,
    ignoreUserConfig: flags.ignoreUserConfig,
    ignoreRules: flags.ignoreRules,
  };
}
