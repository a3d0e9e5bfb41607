/**
 * What the rules decide about a command the model wants to run. A `bash -lc` (or `sh -c`, …)
 * script is judged command by command when it splits into plain commands: the strictest ruling
 * of its parts wins, and it counts as allowed only when every part is. A script that does not
 * split (redirections, substitutions, …) is judged as the whole argv.
 */
import { parsePlainCommands, shellScriptCommand } from "../../safety/bash-commands.js";
import type { ExecPolicy, RuleDecision } from "./policy.js";

export interface CommandRuling {
  decision: RuleDecision;
  /** The justification of a rule that forbade or asked, for messages. */
  justification?: string;
}

const STRICTNESS: Record<RuleDecision, number> = { allow: 0, prompt: 1, forbidden: 2 };

/** Null when no rule speaks about (every part of) the command: the approval policy decides. */
export async function ruleOn(policy: ExecPolicy, argv: readonly string[]): Promise<CommandRuling | null> {
  if (policy.size === 0) return null;
  const script = shellScriptCommand(argv);
  const parts = script ? await parsePlainCommands(script.script) : null;
  const commands = parts && parts.length > 0 ? parts : [argv];
  let strictest: CommandRuling | null = null;
  let unruled = false;
  for (const command of commands) {
    const evaluation = policy.evaluate(command);
    if (evaluation.decision === undefined) {
      unruled = true;
      continue;
    }
    if (strictest === null || STRICTNESS[evaluation.decision] > STRICTNESS[strictest.decision]) {
      const deciding = evaluation.matchedRules.find((m) => m.prefixRuleMatch.decision === evaluation.decision)?.prefixRuleMatch;
      strictest = { decision: evaluation.decision, ...(deciding?.justification !== undefined ? { justification: deciding.justification } : {}) };
    }
  }
  // "allow" must cover every part; a part no rule knows leaves the decision to the policy.
  if (strictest?.decision === "allow" && unruled) return null;
  return strictest;
}
