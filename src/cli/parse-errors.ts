/**
 * Command-line mistakes (an unknown option or subcommand, a value outside an option's choices,
 * a stray argument) answered the way command-line tools usually do: one line saying what is
 * wrong, with the nearest valid spelling when there is one, then the command's usage and where
 * to read more, and exit status 2 (as the reference, whose parser exits 2 on a usage error).
 *
 * Commander funnels every parse error through `Command.error`; the subclass below rewrites the
 * message there, so commands.ts only has to create its program with `createProgram`.
 */
import { Command, CommanderError, type ErrorOptions, type Option } from "commander";
import { didYouMean, nearest } from "../util/nearest.js";

/** The exit status of a usage error. */
export const USAGE_ERROR = 2;

type ActionHandler = Parameters<Command["action"]>[0];

export class CliCommand extends Command {
  /** Whether this command runs something itself (not only dispatches to subcommands). */
  runsAction = false;

  constructor(name?: string) {
    super(name);
    // Errors end parseAsync with a CommanderError (see parseCommandLine) instead of process.exit,
    // and the suggestions are ours, so commander's own are off.
    this.exitOverride();
    this.showSuggestionAfterError(false);
  }

  override createCommand(name?: string): Command {
    return new CliCommand(name);
  }

  override action(fn: ActionHandler): this {
    this.runsAction = true;
    return super.action(fn);
  }

  override error(message: string, options?: ErrorOptions): never {
    const code = options?.code ?? "commander.error";
    const text = [explain(this, message, code), "", ...usageLines(this), `Try '${commandPath(this)} --help' for more information.`].join("\n");
    return super.error(text, { code, exitCode: USAGE_ERROR });
  }
}

/**
 * The root command. A single bare word given where a command also takes a prompt is read as a
 * prompt, unless it is a near miss of a subcommand (`codex-ts exce`): then it is an unknown
 * subcommand with a suggestion, rather than a run with the prompt "exce".
 */
export function createProgram(name: string): CliCommand {
  const program = new CliCommand(name);
  program.hook("preAction", (_program, command) => {
    const [word, ...rest] = command.args;
    if (word === undefined || rest.length > 0 || !/^[A-Za-z][\w-]*$/.test(word)) return;
    if (nearest(word, subcommandNames(command)) !== null) command.error(`unknown subcommand '${word}'`, { code: "commander.unknownCommand" });
  });
  return program;
}

/** Runs the parser; a parse error, --help or --version ends it with their exit status. */
export async function parseCommandLine(program: Command, argv: readonly string[]): Promise<number | null> {
  try {
    await program.parseAsync([...argv]);
    return null;
  } catch (err) {
    // Help shown because a subcommand was missing (`codex-ts mcp`) is a usage error too.
    if (err instanceof CommanderError) return err.code === "commander.help" && err.exitCode !== 0 ? USAGE_ERROR : err.exitCode;
    throw err;
  }
}

/** The first line of the message: what is wrong, in our words, with a suggestion. */
function explain(cmd: Command, message: string, code: string): string {
  switch (code) {
    case "commander.unknownOption": {
      const flag = quoted(message) ?? "";
      const candidates = cmd
        .createHelp()
        .visibleOptions(cmd)
        .flatMap((o) => [o.long, o.short])
        .filter((f): f is string => f !== undefined);
      return `error: unknown option '${flag}'${didYouMean(flag, candidates)}`;
    }
    case "commander.invalidArgument": {
      const parts = /^error: option '(.+?)' argument '(.*)' is invalid\./s.exec(message);
      const option = parts ? cmd.options.find((o) => o.flags === parts[1]) : undefined;
      if (!parts || !option?.argChoices) return message;
      const value = parts[2] ?? "";
      return `error: invalid value '${value}' for ${optionName(option)}: expected one of ${option.argChoices.join(", ")}${didYouMean(value, option.argChoices)}`;
    }
    case "commander.optionMissingArgument": {
      const flags = quoted(message);
      const option = cmd.options.find((o) => o.flags === flags);
      if (!option) return message;
      return `error: ${optionName(option)} needs a value${option.argChoices ? ` (one of ${option.argChoices.join(", ")})` : ""}`;
    }
    case "commander.unknownCommand":
      return unknownSubcommand(cmd, cmd.args[0] ?? "");
    case "commander.excessArguments": {
      // A command that takes no arguments of its own but has subcommands: the word was meant as one.
      if (cmd.registeredArguments.length === 0 && cmd.commands.length > 0) return unknownSubcommand(cmd, cmd.args[0] ?? "");
      // `codex-ts exce "fix it"`: a near miss of a subcommand followed by its argument.
      const first = cmd.args[0] ?? "";
      if (cmd.commands.length > 0 && /^[A-Za-z][\w-]*$/.test(first) && nearest(first, subcommandNames(cmd)) !== null) return unknownSubcommand(cmd, first);
      const extra = cmd.args[cmd.registeredArguments.length] ?? "";
      const prompt = cmd.registeredArguments.some((a) => a.name() === "prompt");
      const hint = prompt ? ` (a prompt of several words goes in quotes: ${commandPath(cmd)} "${cmd.args.join(" ")}")` : "";
      return `error: unexpected argument '${extra}'${hint}`;
    }
    default:
      return message.startsWith("error: ") ? message : `error: ${message}`;
  }
}

function unknownSubcommand(cmd: Command, word: string): string {
  return `error: unknown subcommand '${word}'${didYouMean(word, subcommandNames(cmd))}`;
}

/** Names and aliases a user could have meant; one-letter aliases would match too much. */
function subcommandNames(cmd: Command): string[] {
  return cmd
    .createHelp()
    .visibleCommands(cmd)
    .flatMap((c) => [c.name(), ...c.aliases()])
    .filter((n) => n.length >= 3);
}

/** `codex-ts exec resume`: the command's names from the root. */
function commandPath(cmd: Command): string {
  const names: string[] = [];
  for (let c: Command | null = cmd; c; c = c.parent) names.unshift(c.name());
  return names.join(" ");
}

/** `Usage: codex-ts exec [OPTIONS] [PROMPT]`, plus the subcommand form when there is one. */
function usageLines(cmd: Command): string[] {
  const path = commandPath(cmd);
  const args = cmd.registeredArguments.map((a) => {
    const name = `${a.name().toUpperCase()}${a.variadic ? "..." : ""}`;
    return a.required ? ` <${name}>` : ` [${name}]`;
  });
  const runs = cmd instanceof CliCommand && cmd.runsAction;
  if (cmd.commands.length === 0) return [`Usage: ${path} [OPTIONS]${args.join("")}`];
  if (args.length === 0) return [`Usage: ${path} [OPTIONS] ${runs ? "[COMMAND]" : "<COMMAND>"}`];
  return [`Usage: ${path} [OPTIONS]${args.join("")}`, `       ${path} [OPTIONS] <COMMAND> [ARGS]`];
}

/** `--sandbox <mode>`: how the option is written, without its short form. */
function optionName(option: Option): string {
  const value = /[<[][^>\]]*[>\]]/.exec(option.flags)?.[0];
  return [option.long ?? option.short ?? option.flags, value].filter((part) => part !== undefined).join(" ");
}

/** The first '…'-quoted part of commander's message. */
function quoted(message: string): string | undefined {
  return /'([^']*)'/.exec(message)?.[1];
}
