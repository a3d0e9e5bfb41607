/**
 * The command tree as completion scripts need it, read from the live commander program so the
 * scripts can never disagree with the parser: each command's path, names, options (whether they
 * take a value, and which values when they are fixed) and the fixed values of its arguments.
 */
import type { Command } from "commander";

export interface CompletionOption {
  /** Every spelling, e.g. ["-m", "--model"]. */
  names: string[];
  description: string;
  takesValue: boolean;
  /** Fixed values (`--sandbox read-only|…`); empty when the value is free (files are offered). */
  choices: string[];
}

export interface CompletionCommand {
  /** Space-separated names from the program down, e.g. "codex-ts exec resume". */
  path: string;
  options: CompletionOption[];
  /** Direct subcommands: their names (aliases included) and descriptions. */
  subcommands: { names: string[]; description: string; path: string }[];
  /** Fixed values a positional argument takes (`completion [shell]`). */
  argumentChoices: string[];
  /** Whether a positional argument takes any value (a prompt, a path): then files are offered too. */
  freeArgument: boolean;
}

/** Every command of the tree, the program first, hidden options and commands left out. */
export function completionTree(program: Command): CompletionCommand[] {
  const out: CompletionCommand[] = [];
  const visit = (command: Command, path: string): void => {
    const subs = command.commands.filter((c) => !(c as Command & { _hidden?: boolean })._hidden && c.name() !== "help");
    out.push({
      path,
      options: [
        ...command.options
          .filter((o) => !o.hidden)
          .map((o) => ({
            names: [o.short, o.long].filter((n): n is string => typeof n === "string"),
            description: firstLine(o.description),
            takesValue: o.required || o.optional,
            choices: o.argChoices ?? [],
          })),
        { names: ["-h", "--help"], description: "show help", takesValue: false, choices: [] },
      ],
      subcommands: subs.map((c) => ({ names: [c.name(), ...c.aliases()], description: firstLine(c.description()), path: `${path} ${c.name()}` })),
      argumentChoices: command.registeredArguments.flatMap((a) => a.argChoices ?? []),
      freeArgument: command.registeredArguments.some((a) => a.argChoices === undefined),
    });
    for (const sub of subs) visit(sub, `${path} ${sub.name()}`);
  };
  visit(program, program.name());
  return out;
}

function firstLine(text: string): string {
  return (text.split("\n")[0] ?? "").trim();
}
