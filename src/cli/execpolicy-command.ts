/**
 * `codex-ts execpolicy check [--rules FILE]… [--pretty] -- CMD…`: what the command rules say
 * about a command, as the reference prints it: `{"matchedRules":[…],"decision":"…"}` (no
 * `decision` when no rule matched). Without `--rules`, the rules a session would use are read
 * (`$CODEX_HOME/rules` and the trusted project's `.codex/rules`). A broken rules file exits 1
 * naming the file, line and column.
 */
import { loadConfig } from "../config/load-config.js";
import { ConfigError } from "../config/overrides.js";
import { evaluateCommandRules } from "../host/standalone.js";
import { errorMessage } from "../util/errors.js";

export interface ExecPolicyCheckOptions {
  rules: string[];
  pretty?: boolean;
  config: string[];
}

export async function runExecPolicyCheck(command: string[], opts: ExecPolicyCheckOptions): Promise<number> {
  let evaluation: unknown;
  try {
    evaluation = await evaluateCommandRules(command, opts.rules, () => loadConfig({ cwd: process.cwd(), overrides: opts.config }));
  } catch (err) {
    if (err instanceof ConfigError) {
      process.stderr.write(`Error loading config: ${err.message}\n`);
      return 2;
    }
    process.stderr.write(`Error: failed to load rules: ${errorMessage(err)}\n`);
    return 1;
  }
  process.stdout.write(`${opts.pretty ? JSON.stringify(evaluation, null, 2) : JSON.stringify(evaluation)}\n`);
  return 0;
}
