/**
 * MCP stdio servers the session starts run with the session's denied paths hidden, as the
 * agent's commands do: full access otherwise (they are the user's own programs, with network and
 * writes), but what the permission profile denies is masked (sandbox/launcher.ts). A server that
 * cannot be wrapped on this machine while something is denied is not started; the start-up
 * failure says why. A command that does not exist is left alone, so its failure reads as usual.
 */
import { commandExists } from "../exec/command-exists.js";
import type { StdioLauncher } from "../mcp/connection.js";
import type { FileSystemGuard } from "../sandbox/fs-guard.js";
import { sandboxCommand } from "../sandbox/launcher.js";

export function mcpStdioLauncher(guard: FileSystemGuard): StdioLauncher {
  return async (argv, cwd, env) => {
    const [program] = argv;
    if (program === undefined || !commandExists(program, cwd, env.PATH ?? process.env.PATH)) return { argv, env };
    const wrapped = await sandboxCommand({ policy: { type: "danger-full-access" }, cwd, argv, env, tty: false, guard });
    return { argv: wrapped.argv, env: wrapped.env };
  };
}
