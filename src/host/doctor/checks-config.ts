/**
 * Doctor checks of what the user configured: config.toml and the files layered on it, the
 * `.rules` files, and every enabled MCP server started for real and asked for its tools.
 */
import { ExecPolicy } from "../../approval/exec-policy/policy.js";
import type { Config } from "../../config/load-config.js";
import { McpConnectionManager } from "../../mcp/manager.js";
import type { McpStartupStatus } from "../../protocol/mcp-events.js";
import { fail, ok, warning, type Finding } from "./report.js";
import { errorMessage } from "../../util/errors.js";

export function configCheck(config: Config): Finding {
  const details: Record<string, string> = {
    files: config.configFiles.length > 0 ? config.configFiles.join(", ") : "none (built-in defaults)",
    model: `${config.model} (provider ${config.modelProviderId})`,
    sandbox: `${config.sandboxMode}, approval ${config.approvalPolicy}`,
  };
  if (config.profile !== null) details.profile = config.profile;
  if (config.warnings.length > 0) {
    return warning(`loaded with ${config.warnings.length} warning${config.warnings.length === 1 ? "" : "s"}: ${config.warnings[0]}`, "fix or remove the keys named (`--strict-config` turns these into errors)", { ...details, warnings: config.warnings.join(" | ") });
  }
  return ok("config loaded", details);
}

export function configErrorCheck(message: string): Finding {
  return fail(`config does not load: ${message.split("\n")[0] ?? message}`, "fix the file and line named; `codex-ts --help` and docs/config.md describe every key", { error: message });
}

export function rulesCheck(config: Config): Finding {
  const details = { folders: config.rulesFolders.join(", ") || "none" };
  if (config.features.exec_policy === false) return ok("command rules are off (features.exec_policy = false)", details);
  try {
    const policy = ExecPolicy.loadFolders(config.rulesFolders);
    return ok(`${policy.size} command rule${policy.size === 1 ? "" : "s"} parsed`, details);
  } catch (err) {
    return fail(`a rules file does not parse: ${errorMessage(err)}`, "fix the file and line named (`codex-ts execpolicy check` tries a command against them)", details);
  }
}

/** Starts every enabled MCP server as a session would, lists its tools, and stops it. */
export async function mcpCheck(config: Config, env: NodeJS.ProcessEnv): Promise<Finding> {
  const enabled = Object.entries(config.mcpServers).filter(([, c]) => c.enabled);
  if (enabled.length === 0) return ok("no MCP servers configured");
  const states = new Map<string, McpStartupStatus>();
  const manager = McpConnectionManager.start(config.mcpServers, {
    cwd: config.cwd,
    env,
    onEvent: (msg) => {
      if (msg.type === "mcp_startup_update") states.set(msg.server, msg.status);
    },
  });
  try {
    await manager.whenSettled();
    const tools = manager.readyTools();
    const details: Record<string, string> = {};
    const failed: string[] = [];
    for (const [name, server] of enabled) {
      const state = states.get(name);
      if (state?.state === "failed") {
        failed.push(name);
        details[name] = `failed: ${state.error}`;
      } else {
        const count = tools.filter((t) => t.server === name).length;
        details[name] = `${state?.state ?? "unknown"}, ${count} tool${count === 1 ? "" : "s"} (${server.transport})`;
      }
    }
    if (failed.length === 0) return ok(`${enabled.length} server${enabled.length === 1 ? "" : "s"} started, ${tools.length} tools`, details);
    const remedy = failed.map((n) => (details[n]?.includes("mcp login") ? `\`codex-ts mcp login ${n}\`` : `check \`codex-ts mcp get ${n}\``)).join("; ");
    const required = failed.some((n) => config.mcpServers[n]?.required === true);
    const summary = `${failed.length} of ${enabled.length} MCP server${enabled.length === 1 ? "" : "s"} did not start: ${failed.join(", ")}`;
    return required ? fail(summary, `${remedy} (a required server that fails stops every session)`, details) : warning(summary, remedy, details);
  } finally {
    await manager.shutdown();
  }
}
