/**
 * `-P, --permissions NAME`, shared by every command that runs the agent's commands (exec, the
 * interactive UI, `sandbox`): the permission profile to use instead of `default_permissions` and
 * `sandbox_mode` from config.
 */
import { Option } from "commander";

export function permissionsOption(): Option {
  return new Option("-P, --permissions <name>", "permission profile: a [permissions.NAME] table, or :read-only, :workspace, :danger-full-access");
}
