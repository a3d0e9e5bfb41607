/**
 * `codex-ts execpolicy check [--rules FILE]… [--pretty] -- CMD…`: what the command rules say
 * about a command, as the reference prints it: `{"matchedRules":[…],"decision":"…"}` (no
 * `decision` when no rule matched). Without `--rules`, the rules a session would use are read
 * (`$CODEX_HOME/rules` and the trusted project's `.codex/rules`). A broken rules file exits 1
 * naming the file, line and column.
 */
import { loadConfig } from "../config/load-config.js";
import { ConfigError } from "../config/overrides.js";
import { ExecPolicy } from "../approval/exec-policy/policy.js";

export interface ExecPolicyCheckOptions {
  rules: string[];
  pretty?: boolean;
  config: string[];
}

export function runExecPolicyCheck(command: string[], opts: ExecPolicyCheckOptions): number {
  let policy: ExecPolicy;
  try {
    if (opts.rules.length > 0) {
      policy = ExecPolicy.loadFiles(opts.rules);
    } else {
      const config = loadConfig({ cwd: process.cwd(), overrides: opts.config });
      policy = ExecPolicy.loadFolders(config.rulesFolders);
    }
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Error loading config: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`Error: failed to load rules: ${(err as Error).message}\n`);
    return 1;
  }
  const evaluation = policy.evaluate(command);
  process.stdout.write(`${opts.pretty ? JSON.stringify(evaluation, null, 2) : JSON.stringify(evaluation)}\n`);
  return 0;
}
