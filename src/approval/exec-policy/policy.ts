/**
 * The exec policy: prefix rules from `.rules` files that decide about a command before the
 * approval policy does. A rule matches when its pattern is a prefix of the command's argv (each
 * pattern position a token or a list of alternatives); when several match, the strictest
 * decision wins (forbidden > prompt > allow). Rules check their own `match` / `not_match`
 * examples when loaded, so a rule that does not do what its author meant fails at once, naming
 * its file and line.
 */
import { readdirSync } from "node:fs";
import { readTextFile } from "../../util/bounded-read.js";
import { basename, join } from "node:path";
import { parseRules, RulesError, type RuleCall, type RuleValue } from "./rules-parser.js";
import { splitShellWords } from "../../util/shell-words.js";

export type RuleDecision = "allow" | "prompt" | "forbidden";

const STRICTNESS: Record<RuleDecision, number> = { allow: 0, prompt: 1, forbidden: 2 };

export interface PrefixRule {
  /** One entry per argv position: the tokens accepted there. */
  pattern: string[][];
  decision: RuleDecision;
  justification?: string;
  /** `file:line`, for messages. */
  source: string;
}

export interface RuleMatch {
  prefixRuleMatch: { matchedPrefix: string[]; decision: RuleDecision; justification?: string };
}

/** What the rules say about one command, in the shape `execpolicy check` prints. */
export interface PolicyEvaluation {
  matchedRules: RuleMatch[];
  /** The strictest matched decision; absent when no rule matched. */
  decision?: RuleDecision;
}

export class ExecPolicy {
  private readonly rules: PrefixRule[] = [];
  /** host_executable: a program's bare name, by the absolute paths it may be run from. */
  private readonly hostExecutables = new Map<string, string>();

  static empty(): ExecPolicy {
    return new ExecPolicy();
  }

  /** Every `*.rules` file in these folders (missing folders are skipped), in name order. */
  static loadFolders(folders: readonly string[]): ExecPolicy {
    const files: string[] = [];
    for (const folder of folders) {
      let names: string[];
      try {
        names = readdirSync(folder).filter((n) => n.endsWith(".rules")).sort();
      } catch {
        continue;
      }
      files.push(...names.map((n) => join(folder, n)));
    }
    return ExecPolicy.loadFiles(files);
  }

  static loadFiles(files: readonly string[]): ExecPolicy {
    const policy = new ExecPolicy();
    // A rules file is read whole, but only a regular file of a sane size (a repository's rules may be a FIFO).
    for (const file of files) policy.addFile(file, readTextFile(file));
    return policy;
  }

  addFile(file: string, text: string): void {
    for (const call of parseRules(file, text)) this.addCall(file, call);
  }

  /** An allow rule for exactly this prefix (an approved amendment), effective at once. */
  allowPrefix(prefix: readonly string[], source: string): void {
    this.rules.push({ pattern: prefix.map((t) => [t]), decision: "allow", source });
  }

  get size(): number {
    return this.rules.length;
  }

  evaluate(argv: readonly string[]): PolicyEvaluation {
    const command = this.resolveHostExecutable(argv);
    const matchedRules: RuleMatch[] = [];
    let decision: RuleDecision | undefined;
    for (const rule of this.rules) {
      if (!matches(rule.pattern, command)) continue;
      matchedRules.push({
        prefixRuleMatch: {
          matchedPrefix: command.slice(0, rule.pattern.length),
          decision: rule.decision,
          ...(rule.justification !== undefined ? { justification: rule.justification } : {}),
        },
      });
      if (decision === undefined || STRICTNESS[rule.decision] > STRICTNESS[decision]) decision = rule.decision;
    }
    return decision === undefined ? { matchedRules } : { matchedRules, decision };
  }

  /** `/usr/bin/git` is `git` when a host_executable rule lists that path for it. */
  private resolveHostExecutable(argv: readonly string[]): readonly string[] {
    const [first, ...rest] = argv;
    const name = first !== undefined ? this.hostExecutables.get(first) : undefined;
    return name !== undefined ? [name, ...rest] : argv;
  }

  private addCall(file: string, call: RuleCall): void {
    const where = `${file}:${call.line}`;
    const fail = (reason: string, line = call.line): never => {
      throw new RulesError(file, line, 1, reason);
    };
    const allowed = call.name === "prefix_rule" ? ["pattern", "decision", "justification", "match", "not_match"] : ["name", "paths"];
    if (call.name !== "prefix_rule" && call.name !== "host_executable") fail(`unknown rule ${call.name}(); expected prefix_rule or host_executable`);
    for (const [key, arg] of call.args) if (!allowed.includes(key)) fail(`${call.name}() has no argument ${key}`, arg.line);

    if (call.name === "host_executable") {
      const name = call.args.get("name")?.value;
      const paths = call.args.get("paths")?.value;
      if (typeof name !== "string" || name === "" || name.includes("/")) fail("host_executable: name must be a bare program name");
      if (!Array.isArray(paths) || paths.some((p) => typeof p !== "string" || !p.startsWith("/") || basename(p) !== name)) {
        fail(`host_executable: paths must be absolute paths ending in /${String(name)}`);
      }
      for (const path of paths as string[]) this.hostExecutables.set(path, name as string);
      return;
    }

    const patternArg = call.args.get("pattern");
    if (!patternArg) return fail("prefix_rule: pattern is required");
    const pattern = patternOf(patternArg.value, (reason) => fail(`invalid pattern element: ${reason}`, patternArg.line));
    const decisionValue = call.args.get("decision")?.value ?? "allow";
    if (decisionValue !== "allow" && decisionValue !== "prompt" && decisionValue !== "forbidden") {
      return fail(`invalid decision: ${typeof decisionValue === "string" ? decisionValue : JSON.stringify(decisionValue)} (expected allow, prompt or forbidden)`);
    }
    const justificationValue = call.args.get("justification")?.value;
    if (justificationValue !== undefined && typeof justificationValue !== "string") fail("prefix_rule: justification must be a string");
    const justification = typeof justificationValue === "string" ? justificationValue : undefined;
    const rule: PrefixRule = { pattern, decision: decisionValue, ...(justification !== undefined ? { justification } : {}), source: where };
    for (const [key, mustMatch] of [["match", true], ["not_match", false]] as const) {
      const examples = call.args.get(key);
      if (!examples) continue;
      if (!Array.isArray(examples.value)) fail(`prefix_rule: ${key} must be a list of examples`, examples.line);
      for (const example of examples.value as RuleValue[]) {
        const argv = exampleArgv(example, (reason) => fail(`${key} example: ${reason}`, examples.line));
        if (matches(pattern, argv) !== mustMatch) {
          fail(`${key} example ${JSON.stringify(typeof example === "string" ? example : argv)} ${mustMatch ? "does not match" : "matches"} this rule`, examples.line);
        }
      }
    }
    this.rules.push(rule);
  }
}

function patternOf(value: RuleValue, fail: (reason: string) => never): string[][] {
  if (!Array.isArray(value)) return fail("pattern must be a list");
  if (value.length === 0) return fail("pattern cannot be empty");
  return value.map((element) => {
    if (typeof element === "string") return [element];
    if (element.length === 0 || element.some((alt) => typeof alt !== "string")) return fail("alternatives must be a non-empty list of strings");
    return element as string[];
  });
}

function exampleArgv(example: RuleValue, fail: (reason: string) => never): string[] {
  if (typeof example === "string") {
    const words = splitShellWords(example);
    return words ?? fail(`cannot split ${JSON.stringify(example)} into words`);
  }
  if (example.some((t) => typeof t !== "string")) return fail("a list example must hold strings");
  return example as string[];
}

function matches(pattern: readonly string[][], argv: readonly string[]): boolean {
  if (argv.length < pattern.length) return false;
  return pattern.every((alternatives, i) => alternatives.includes(argv[i] ?? ""));
}
