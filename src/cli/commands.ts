/** The command tree and its --help text. Each action loads its implementation on demand. */
import { Command, Option } from "commander";
import { SANDBOX_MODES, type SandboxMode } from "../protocol/policy.js";
import type { ExecOptions } from "./exec/run-exec.js";
import { packageVersion } from "./version.js";

const collect = (value: string, previous: string[]): string[] => [...previous, value];
const collectList = (value: string, previous: string[]): string[] => [...previous, ...value.split(",").filter(Boolean)];

export async function runCli(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = new Command("codex-ts")
    .description("A coding agent for your terminal: it reads, runs and edits code in your repository with a model.")
    .version(`codex-ts ${packageVersion()}`, "-V, --version")
    .showHelpAfterError()
    .enablePositionalOptions();

  program
    .command("exec")
    .alias("e")
    .description("Run one task without the interactive UI and print the agent's final message.")
    .argument("[prompt]", "the task; '-' or nothing reads it from stdin (piped stdin is appended to a given prompt)")
    .option("--json", "print events to stdout as JSON Lines (the Codex exec --json format)")
    .addOption(new Option("--experimental-json", "alias of --json").hideHelp())
    .option("-o, --output-last-message <file>", "write the agent's final message to this file")
    .option("--output-schema <file>", "JSON Schema the final message must follow (strict structured output)")
    .option("-m, --model <model>", "model to use, e.g. gpt-5.5")
    .addOption(new Option("-s, --sandbox <mode>", "sandbox for commands the model runs").choices([...SANDBOX_MODES]))
    .option("-C, --cd <dir>", "work in this directory instead of the current one")
    .option("--add-dir <dir>", "another directory the agent may write to (repeatable)", collect, [])
    .option("--skip-git-repo-check", "allow running outside a Git repository")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .option("-p, --profile <name>", "use this [profiles.<name>] table from config.toml")
    .option("-i, --image <file>", "attach image(s) to the prompt (repeatable or comma-separated)", collectList, [])
    .addOption(new Option("--color <when>", "colour in progress output").choices(["always", "never", "auto"]).default("auto"))
    .option("--ephemeral", "do not keep a session file for this run")
    .option("--full-auto", "let the agent write in the workspace (same as --sandbox workspace-write)")
    .option("--dangerously-bypass-approvals-and-sandbox", "run every command unconfined and without asking")
    .option("--oss", "use a local model server (oss_provider from config, default ollama); checks it is running first")
    .addOption(new Option("--local-provider <provider>", "the local server --oss uses").choices(["ollama", "lmstudio"]))
    .option("--enable <feature>", "turn a feature flag on for this run, like -c features.<feature>=true (repeatable)", collect, [])
    .option("--disable <feature>", "turn a feature flag off for this run, like -c features.<feature>=false (repeatable)", collect, [])
    .addOption(new Option("--thread-source <source>", "who started the thread (set by the Codex SDK)").hideHelp())
    .addOption(new Option("--cyber-access-program <program>").hideHelp())
    .addHelpText(
      "after",
      "\nExamples:\n  codex-ts exec \"explain this repository\"\n  git diff | codex-ts exec \"review this change\"\n  codex-ts exec --json -s danger-full-access \"run the tests and fix failures\"",
    )
    .action(async (prompt: string | undefined, opts: ExecOptions) => {
      const { runExec } = await import("./exec/run-exec.js");
      exitCode = await runExec(prompt, opts);
    });

  program
    .command("apply_patch")
    .alias("apply-patch")
    .description("Apply a patch in the apply_patch format to the current directory (from PATCH or stdin).")
    .argument("[patch...]", "the patch text, from '*** Begin Patch' to '*** End Patch'")
    .addHelpText("after", "\nExit status: 0 applied, 1 invalid or not applicable (no file is changed), 2 no patch given.")
    .action(async (patch: string[]) => {
      const { runApplyPatchCommand } = await import("./apply-patch-command.js");
      exitCode = await runApplyPatchCommand(patch);
    });

  program
    .command("sandbox")
    .description("Run a command under the sandbox policy the agent would use, to check what it allows.")
    .addOption(new Option("-s, --sandbox <mode>", "sandbox policy (default: sandbox_mode from config, else read-only)").choices([...SANDBOX_MODES]))
    .option("--add-dir <dir>", "another writable directory under workspace-write (repeatable)", collect, [])
    .option("-c, --config <key=value>", "override a config.toml value, e.g. sandbox_workspace_write.network_access=true (repeatable)", collect, [])
    .argument("<command...>", "the command and its arguments (put them after --)")
    .addHelpText("after", "\nExamples:\n  codex-ts sandbox -- touch /etc/x        # fails: read-only\n  codex-ts sandbox -s workspace-write -- sh -c 'echo ok > out.txt'\n\nExits with the command's status (128+N when killed by signal N, 127 when not found).")
    .action(async (command: string[], opts: { sandbox?: SandboxMode; addDir: string[]; config: string[] }) => {
      const { runSandboxCommand } = await import("./sandbox-command.js");
      exitCode = await runSandboxCommand(command, opts);
    });

  const login = program
    .command("login")
    .description("Save an API key for codex-ts in $CODEX_HOME/auth.json (read from stdin).")
    .option("--with-api-key", "read the API key from stdin, e.g. `printenv OPENAI_API_KEY | codex-ts login --with-api-key`")
    .addOption(new Option("--api-key <key>", "no longer supported; pipe the key to --with-api-key").hideHelp())
    .addHelpText("after", "\nOnly API-key login is supported (no ChatGPT/browser login).\n\nExamples:\n  printenv OPENAI_API_KEY | codex-ts login --with-api-key\n  codex-ts login status")
    .action(async (opts: { withApiKey?: boolean; apiKey?: string }) => {
      const { runLoginCommand } = await import("./login-command.js");
      exitCode = await runLoginCommand(opts);
    });
  login
    .command("status")
    .description("Show whether an API key is saved (masked); exits 1 when not logged in.")
    .action(async () => {
      const { runLoginStatus } = await import("./login-command.js");
      exitCode = await runLoginStatus();
    });
  program
    .command("logout")
    .description("Remove the saved API key ($CODEX_HOME/auth.json).")
    .action(async () => {
      const { runLogout } = await import("./login-command.js");
      exitCode = await runLogout();
    });

  program.action(() => {
    process.stderr.write("The interactive UI is not available yet. Use `codex-ts exec \"<task>\"`; see `codex-ts --help`.\n");
    exitCode = 2;
  });

  await program.parseAsync(argv);
  return exitCode;
}
