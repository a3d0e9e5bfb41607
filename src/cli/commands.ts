/** The command tree and its --help text. Each action loads its implementation on demand. */
import { Argument, Command, Option } from "commander";
import { COMPLETION_SHELLS, type CompletionShell } from "./completion/scripts.js";
import { SANDBOX_MODES, type SandboxMode } from "../protocol/policy.js";
import type { ExecOptions } from "./exec/run-exec.js";
import type { ThreadTarget } from "../protocol/threads.js";
import type { ReviewTarget } from "../protocol/review.js";
import type { TuiOptions, TuiStart } from "../tui/run-tui.js";
import type { AppServerCliOptions } from "../app-server/run-app-server.js";
import { packageVersion } from "../util/version.js";
import { createProgram, parseCommandLine } from "./parse-errors.js";
import { permissionsOption } from "./permissions-option.js";
import { searchOption } from "./search-option.js";

const collect = (value: string, previous: string[]): string[] => [...previous, value];
const collectList = (value: string, previous: string[]): string[] => [...previous, ...value.split(",").filter(Boolean)];
/** `-p` reads both forms of a profile (config/profiles.ts), for exec and the interactive UI alike. */
/** `--dangerously-bypass-hook-trust`, as exec and the interactive UI describe it. */
const HOOK_TRUST_HELP = "run enabled hooks (docs/hooks.md) without their having been trusted, for this run only. DANGEROUS: only for automation that vets its hook files";

const PROFILE_HELP = "use profile NAME: $CODEX_HOME/NAME.config.toml over config.toml, or its [profiles.NAME] table";

export async function runCli(argv: string[]): Promise<number> {
  let exitCode = 0;
  const program = createProgram("codex-ts")
    .description("A coding agent for your terminal: it reads, runs and edits code in your repository with a model.")
    .version(`codex-ts ${packageVersion()}`, "-V, --version")
    .enablePositionalOptions();

  const exec = program
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
    .addOption(permissionsOption())
    .option("-C, --cd <dir>", "work in this directory instead of the current one")
    .option("--add-dir <dir>", "another directory the agent may write to (repeatable)", collect, [])
    .option("--skip-git-repo-check", "allow running outside a Git repository")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .option("-p, --profile <name>", PROFILE_HELP)
    .option("-i, --image <file>", "attach image(s) to the prompt (repeatable or comma-separated)", collectList, [])
    .addOption(new Option("--color <when>", "colour in progress output").choices(["always", "never", "auto"]).default("auto"))
    .option("--ephemeral", "do not keep a session file for this run")
    .option("--full-auto", "let the agent write in the workspace (same as --sandbox workspace-write)")
    .option("--dangerously-bypass-approvals-and-sandbox", "run every command unconfined and without asking")
    .option("--dangerously-bypass-hook-trust", HOOK_TRUST_HELP)
    .option("--oss", "use a local model server (oss_provider from config, default ollama); checks it is running first")
    .addOption(new Option("--local-provider <provider>", "the local server --oss uses").choices(["ollama", "lmstudio"]))
    .option("--enable <feature>", "turn a feature flag on for this run, like -c features.<feature>=true (repeatable)", collect, [])
    .option("--disable <feature>", "turn a feature flag off for this run, like -c features.<feature>=false (repeatable)", collect, [])
    .addOption(searchOption())
    .option("--strict-config", "refuse config keys this version does not know (otherwise a warning)")
    .option("--ignore-user-config", "do not read $CODEX_HOME/config.toml (the login there is still used)")
    .option("--ignore-rules", "load no .rules command-rule files, the user's or the project's")
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
  // "help" stays a prompt like any other word; --help shows the help.
  exec.helpCommand(false);
  for (const kind of ["resume", "fork"] as const) {
    threadCommand(exec, kind, async (prompt, opts, target) => {
      const { runExec } = await import("./exec/run-exec.js");
      exitCode = await runExec(prompt, opts, target);
    });
  }
  const runReview = async (instructions: string | undefined, opts: ReviewOptions, cmd: Command): Promise<void> => {
    const target = reviewTarget(instructions, opts);
    if (typeof target === "string") cmd.error(`error: ${target}`, { exitCode: 2 });
    const failOn = opts.failOnPriority === undefined ? undefined : Number(opts.failOnPriority);
    if (failOn !== undefined && !(Number.isInteger(failOn) && failOn >= 0 && failOn <= 3)) cmd.error("error: --fail-on-priority takes 0, 1, 2 or 3", { exitCode: 2 });
    const parent: Partial<ExecOptions> = cmd.parent?.name() === "exec" ? cmd.parent.opts<ExecOptions>() : {};
    const { model, ...rest } = opts;
    // -m names the reviewer's model: it beats review_model, as a flag beats config.
    const reviewModel = model !== undefined ? [`review_model=${JSON.stringify(model)}`] : [];
    const { runExec } = await import("./exec/run-exec.js");
    const execOpts: ExecOptions = {
      addDir: [],
      image: [],
      color: "auto",
      ...parent,
      ...definedOnly(rest),
      config: [...(parent.config ?? []), ...opts.config, ...reviewModel],
    };
    exitCode = await runExec(undefined, execOpts, null, { target: target as ReviewTarget, ...(failOn !== undefined ? { failOnPriority: failOn } : {}) });
  };
  reviewCommand(exec.command("review"), runReview);
  reviewCommand(program.command("review"), runReview);

  program
    .command("sessions")
    .description("List recorded sessions, most recently active first (those of the current directory unless --all).")
    .option("--all", "list the sessions of every directory")
    .option("--json", "print a JSON array (id, path, created_at, updated_at, cwd, first_user_message, …)")
    .option("-n, --limit <count>", "show at most this many (0: all)", "20")
    .action(async (opts: { all?: boolean; json?: boolean; limit?: string }) => {
      const { runSessionsCommand } = await import("./sessions-command.js");
      exitCode = runSessionsCommand(opts);
    });

  const sessionArgument = "the session's id, or its name (/rename); an id wins when the text is one";
  program
    .command("archive")
    .description("Archive a recorded session: its file moves to $CODEX_HOME/archived_sessions/, out of listings and --last.")
    .argument("<session>", sessionArgument)
    .action(async (session: string) => {
      const { runArchive } = await import("./archive-command.js");
      exitCode = runArchive(session);
    });
  program
    .command("unarchive")
    .description("Bring an archived session back among the recorded ones.")
    .argument("<session>", sessionArgument)
    .action(async (session: string) => {
      const { runUnarchive } = await import("./archive-command.js");
      exitCode = runUnarchive(session);
    });
  program
    .command("delete")
    .description("Delete a recorded or archived session for good (asks first).")
    .argument("<session>", sessionArgument)
    .option("--force", "do not ask; SESSION must then be an id")
    .action(async (session: string, opts: { force?: boolean }) => {
      const { runDelete } = await import("./archive-command.js");
      exitCode = await runDelete(session, opts);
    });

  tuiThreadCommand(program, "resume", (opts, start) => runInteractive(opts, start));
  tuiThreadCommand(program, "fork", async (opts, start) => {
    // Scripts capture `codex-ts fork ID` to get the new id: without a terminal, keep doing that.
    if (!process.stdout.isTTY && opts.remote === undefined) {
      const { runForkCommand } = await import("./sessions-command.js");
      exitCode = runForkCommand(start.target?.sessionId, { last: start.target?.last, all: start.target?.all, prompt: start.prompt });
      return;
    }
    await runInteractive(opts, start);
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
    .addOption(permissionsOption())
    // The reference's spelling on its own `sandbox` command.
    .addOption(new Option("--permission-profile <name>").hideHelp())
    .option("--add-dir <dir>", "another writable directory under workspace-write (repeatable)", collect, [])
    .option("-c, --config <key=value>", "override a config.toml value, e.g. sandbox_workspace_write.network_access=true (repeatable)", collect, [])
    .argument("<command...>", "the command and its arguments (put them after --)")
    .addHelpText(
      "after",
      "\nExamples:\n  codex-ts sandbox -- touch /etc/x        # fails: read-only\n  codex-ts sandbox -s workspace-write -- sh -c 'echo ok > out.txt'\n  codex-ts sandbox -P locked -- cat .env   # fails when the profile denies .env\n\nExits with the command's status (128+N when killed by signal N, 127 when not found).",
    )
    .action(async (command: string[], opts: { sandbox?: SandboxMode; permissions?: string; permissionProfile?: string; addDir: string[]; config: string[] }) => {
      const { runSandboxCommand } = await import("./sandbox-command.js");
      const { permissionProfile, ...rest } = opts;
      exitCode = await runSandboxCommand(command, { ...rest, permissions: opts.permissions ?? permissionProfile });
    });

  program
    .command("execpolicy")
    .description("Check commands against the command rules (.rules files).")
    .command("check")
    .description("Print, as JSON, which rules match a command and the decision (allow, prompt or forbidden).")
    .option("-r, --rules <file>", "a rules file to check against (repeatable; default: $CODEX_HOME/rules and the trusted project's .codex/rules)", collect, [])
    .option("--pretty", "indent the JSON")
    .option("-c, --config <key=value>", "override a config.toml value (repeatable)", collect, [])
    .argument("<command...>", "the command and its arguments (put them after --)")
    .addHelpText("after", '\nExample:\n  codex-ts execpolicy check --rules ~/.codex-ts/rules/default.rules -- git push origin main\n\nA rule looks like:\n  prefix_rule(pattern=["git", ["push", "fetch"]], decision="prompt", justification="talks to the network")')
    .action(async (command: string[], opts: { rules: string[]; pretty?: boolean; config: string[] }) => {
      const { runExecPolicyCheck } = await import("./execpolicy-command.js");
      exitCode = await runExecPolicyCheck(command, opts);
    });

  const login = program
    .command("login")
    .description("Sign in with ChatGPT (browser or device code), or save an API key, in $CODEX_HOME/auth.json.")
    .option("--with-api-key", "read the API key from stdin, e.g. `printenv OPENAI_API_KEY | codex-ts login --with-api-key`")
    .option("--device-auth", "sign in with a one-time code entered on another device (no browser needed here)")
    .option("--import [dir]", "copy the login the reference Codex CLI saved (from ~/.codex, or the CODEX_HOME named)")
    .addOption(new Option("--api-key <key>", "no longer supported; pipe the key to --with-api-key").hideHelp())
    .addHelpText(
      "after",
      "\nWithout options, opens the ChatGPT sign-in in a browser (the address is printed too) and waits for it.\n\nExamples:\n  codex-ts login\n  codex-ts login --device-auth\n  codex-ts login --import\n  printenv OPENAI_API_KEY | codex-ts login --with-api-key\n  codex-ts login status",
    )
    .action(async (opts: { withApiKey?: boolean; apiKey?: string; deviceAuth?: boolean; import?: string | boolean }) => {
      const { runLoginCommand, loginPolicyForStatus } = await import("./login-command.js");
      exitCode = await runLoginCommand(opts, { policy: await loginPolicyForStatus(process.env) });
    });
  login
    .command("status")
    .description("Show how codex-ts is signed in (ChatGPT account and plan, or a masked API key); exits 1 when not logged in.")
    .action(async () => {
      const { runLoginStatus, loginPolicyForStatus } = await import("./login-command.js");
      exitCode = await runLoginStatus({ policy: await loginPolicyForStatus(process.env) });
    });
  program
    .command("logout")
    .description("Remove the saved login ($CODEX_HOME/auth.json).")
    .action(async () => {
      const { runLogout } = await import("./login-command.js");
      exitCode = await runLogout();
    });

  const mcp = program
    .command("mcp")
    .description("Manage the MCP servers codex-ts starts (the [mcp_servers] tables of $CODEX_HOME/config.toml) and OAuth sign-in to them.");
  mcp
    .command("add")
    .description("Add a global MCP server (replacing one of that name): a stdio command after --, or --url for a streamable HTTP server.")
    .argument("<name>", "the server's name (letters, digits, '-' and '_')")
    .argument("[command...]", "stdio: the program to start and its arguments, after --")
    .option("--env <KEY=VALUE>", "stdio: an environment variable to set for the server (repeatable)", collect, [])
    .option("--url <url>", "the URL of a streamable HTTP server")
    .option("--bearer-token-env-var <var>", "with --url: the environment variable that holds a bearer token")
    .option("--oauth-client-id <id>", "with --url: a client registered with the server's authorization server in advance")
    .option("--oauth-client-secret <secret>", "with --oauth-client-id: its secret (written to config.toml)")
    .option("--oauth-client-registration <auto|cimd|dcr>", "with --url: how the login that follows the add obtains a client")
    .option("--oauth-resource <resource>", "with --url: the OAuth resource parameter to send")
    .option("-c, --config <key=value>", "override a config.toml value for the login that follows; value parsed as TOML (repeatable)", collect, [])
    .addHelpText(
      "after",
      "\nAn HTTP server that publishes OAuth metadata is signed in to right after it is added (see `codex-ts mcp login`).\n\nExamples:\n  codex-ts mcp add docs --env API_KEY=secret -- npx -y @example/docs-mcp\n  codex-ts mcp add remote --url https://mcp.example.com/mcp --bearer-token-env-var EXAMPLE_TOKEN\n  codex-ts mcp add tracker --url https://tracker.example.com/mcp --oauth-client-id codex-cli",
    )
    .action(async (name: string, command: string[], opts: import("./mcp/commands.js").McpAddOptions) => {
      const { runMcpAdd } = await import("./mcp/commands.js");
      exitCode = await runMcpAdd(name, command, opts);
    });
  mcp
    .command("list")
    .description("List the configured MCP servers.")
    .option("--json", "print them as JSON")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .action(async (opts: { json?: boolean; config: string[] }) => {
      const { runMcpList } = await import("./mcp/commands.js");
      exitCode = await runMcpList(opts);
    });
  mcp
    .command("get")
    .description("Show one configured MCP server.")
    .argument("<name>", "the server's name")
    .option("--json", "print it as JSON")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .action(async (name: string, opts: { json?: boolean; config: string[] }) => {
      const { runMcpGet } = await import("./mcp/commands.js");
      exitCode = await runMcpGet(name, opts);
    });
  mcp
    .command("remove")
    .description("Remove a global MCP server.")
    .argument("<name>", "the server's name")
    .action(async (name: string) => {
      const { runMcpRemove } = await import("./mcp/commands.js");
      exitCode = await runMcpRemove(name);
    });

  mcp
    .command("login")
    .description("Sign in to a streamable HTTP MCP server with OAuth; the tokens are kept in $CODEX_HOME/.credentials.json.")
    .argument("<name>", "the server's name")
    .option("--scopes <scope,scope>", "OAuth scopes to ask for besides those the server names (comma-separated)")
    .option("--oauth-client-registration <auto|cimd|dcr>", "how this login obtains a client when none is configured")
    .option("--no-browser", "only print the URL (e.g. over SSH); the address the browser ends on may be pasted back")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .addHelpText(
      "after",
      "\nThe authorization URL is printed and opened with $BROWSER (given the URL as its argument) or the system's opener;\nthe browser comes back to http://127.0.0.1:<port>/callback/<id> (port: mcp_oauth_callback_port, else a free one;\nid: derived from the server's URL; mcp_oauth_callback_url replaces the address).",
    )
    .action(async (name: string, opts: { scopes?: string; oauthClientRegistration?: string; browser?: boolean; config: string[] }) => {
      const { runMcpLogin } = await import("./mcp/auth-commands.js");
      exitCode = await runMcpLogin(name, opts);
    });
  mcp
    .command("logout")
    .description("Remove the stored OAuth tokens of an MCP server.")
    .argument("<name>", "the server's name")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .action(async (name: string, opts: { config: string[] }) => {
      const { runMcpLogout } = await import("./mcp/auth-commands.js");
      exitCode = await runMcpLogout(name, opts);
    });

  const features = program.command("features").description("Inspect feature flags, and turn them on or off in config.toml.");
  features
    .command("list")
    .description("List every feature flag with its stage and its effective value (config, profile, -c and the flags applied).")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .option("-p, --profile <name>", PROFILE_HELP)
    .option("--enable <feature>", "turn a feature flag on for this listing (repeatable)", collect, [])
    .option("--disable <feature>", "turn a feature flag off for this listing (repeatable)", collect, [])
    .action(async (opts: import("./features-command.js").FeaturesListOptions) => {
      const { runFeaturesList } = await import("./features-command.js");
      exitCode = runFeaturesList(opts);
    });
  for (const [verb, enabled] of [["enable", true], ["disable", false]] as const) {
    features
      .command(verb)
      .description(`${enabled ? "Enable" : "Disable"} a feature in $CODEX_HOME/config.toml ([features], or [profiles.NAME.features] with -p).`)
      .argument("<feature>", "the feature's name, e.g. goals (see `codex-ts features list`)")
      .option("-p, --profile <name>", "write into this profile's [profiles.NAME.features] table")
      .action(async (name: string, opts: { profile?: string }) => {
        const { runFeaturesSet } = await import("./features-command.js");
        exitCode = runFeaturesSet(name, enabled, opts);
      });
  }

  program
    .command("doctor")
    .description("Check this installation: sandbox, config and rules, credentials, MCP servers, the provider, the shell snapshot, disk space.")
    .option("--json", "print the report as JSON (the reference's shape: checks by id with status, summary, details, remediation)")
    .option("--ascii", "plain ok/warn/FAIL marks instead of symbols")
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .option("-p, --profile <name>", PROFILE_HELP)
    .addHelpText("after", "\nEach check is ok, warning or fail, and says how to fix what is not ok. Exit status 1 when a check failed.")
    .action(async (opts: import("./doctor/run-doctor.js").DoctorOptions) => {
      const { runDoctor } = await import("./doctor/run-doctor.js");
      exitCode = await runDoctor(opts);
    });

  program
    .command("completion")
    .description("Print a shell completion script for codex-ts (bash by default).")
    .addArgument(new Argument("[shell]", "the shell to complete in").choices(COMPLETION_SHELLS).default("bash"))
    .addHelpText(
      "after",
      '\nExamples:\n  eval "$(codex-ts completion bash)"                                   # in ~/.bashrc\n  codex-ts completion zsh > "${fpath[1]}/_codex-ts"\n  codex-ts completion fish > ~/.config/fish/completions/codex-ts.fish',
    )
    .action(async (shell: CompletionShell) => {
      const [{ completionTree }, { completionScript }] = await Promise.all([import("./completion/command-tree.js"), import("./completion/scripts.js")]);
      process.stdout.write(completionScript(shell, completionTree(program)));
    });

  program
    .command("mcp-server")
    .description("Run codex-ts as an MCP server on stdin/stdout, offering the tools codex (start a thread) and codex-reply (continue one).")
    .action(async () => {
      const { runMcpServer } = await import("../mcp-server/server.js");
      exitCode = await runMcpServer();
    });

  program
    .command("acp")
    .description("Run codex-ts as an Agent Client Protocol agent on stdin/stdout, for editors such as Zed and JetBrains IDEs (docs/acp.md).")
    .option("-c, --config <key=value>", "override a config.toml value for every session (repeatable)", collect, [])
    .option("-p, --profile <name>", PROFILE_HELP)
    .option("-m, --model <model>", "the model sessions start with")
    .option("--login", "sign in with ChatGPT as `codex-ts login` does, then exit (what an editor's terminal sign-in runs)")
    .addHelpText(
      "after",
      '\nEditors start it themselves; in Zed\'s settings.json, for example:\n  "agent_servers": { "codex-ts": { "type": "custom", "command": "codex-ts", "args": ["acp"] } }\n' +
        "Signing in, modes, permissions and JetBrains IDEs: docs/acp.md.",
    )
    .action(async (opts: { config: string[]; profile?: string; model?: string; login?: boolean }) => {
      if (opts.login === true) {
        const { runLoginCommand, loginPolicyForStatus } = await import("./login-command.js");
        exitCode = await runLoginCommand({}, { policy: await loginPolicyForStatus(process.env) });
        return;
      }
      const { runAcp } = await import("../acp/serve.js");
      exitCode = await runAcp({ overrides: opts.config, ...(opts.profile !== undefined ? { profile: opts.profile } : {}), ...(opts.model !== undefined ? { model: opts.model } : {}) });
    });

  program
    .command("app-server")
    .description("Serve the app-server protocol (JSON-RPC) that IDE extensions and GUIs speak, over stdio or WebSockets.")
    .option("--listen <url>", "stdio:// (default) or ws://HOST:PORT", "stdio://")
    .option("--stdio", "serve on stdin/stdout (the same as --listen stdio://)")
    .option("-c, --config <key=value>", "override a config.toml value for every thread; value parsed as TOML (repeatable)", collect, [])
    .option("--enable <feature>", "turn a feature on (repeatable; features.NAME=true)", collect, [])
    .option("--disable <feature>", "turn a feature off (repeatable; features.NAME=false)", collect, [])
    .option("--ws-auth <mode>", "require a bearer token from WebSocket clients: capability-token or signed-bearer-token")
    .option("--ws-token-file <path>", "capability-token: absolute path of the file holding the token")
    .option("--ws-token-sha256 <hex>", "capability-token: the token's SHA-256, instead of the file")
    .option("--ws-shared-secret-file <path>", "signed-bearer-token: absolute path of the HS256 secret")
    .option("--ws-issuer <issuer>", "signed-bearer-token: the issuer tokens must name")
    .option("--ws-audience <audience>", "signed-bearer-token: the audience tokens must name")
    .option("--ws-max-clock-skew-seconds <n>", "signed-bearer-token: clock skew allowed on exp/nbf (default 30)")
    .addHelpText(
      "after",
      "\nA WebSocket listener on an address other than loopback needs --ws-auth. GET /readyz and /healthz answer 200.\n" +
        "Methods served and those answered \"not supported\": docs/app-server.md.\n\n" +
        "Examples:\n  codex-ts app-server\n  codex-ts app-server --listen ws://127.0.0.1:4500\n  codex-ts app-server --listen ws://0.0.0.0:4500 --ws-auth capability-token --ws-token-file /etc/codex/token",
    )
    .action(async (opts: AppServerCliOptions) => {
      const { runAppServer } = await import("../app-server/run-app-server.js");
      exitCode = await runAppServer(opts);
    });

  const runInteractive = async (opts: TuiOptions, start: TuiStart): Promise<void> => {
    const { runTui } = await import("../tui/run-tui.js");
    exitCode = await runTui(opts, start);
  };
  interactiveOptions(program)
    .argument("[prompt]", "a first message to send; the conversation continues in the UI")
    .addHelpText(
      "after",
      "\nWithout a command, codex-ts opens the interactive UI: Enter sends, Shift+Enter adds a line, / lists the\n" +
        "commands, @ searches files, Esc interrupts, Esc Esc edits an earlier message, Ctrl+D quits (docs/tui.md).\n\n" +
        "Examples:\n  codex-ts\n  codex-ts \"why does the build fail?\"\n  codex-ts resume --last\n  codex-ts exec \"explain this repository\"   (no UI)",
    )
    .action(async (prompt: string | undefined, opts: TuiOptions) => runInteractive(opts, { prompt, target: null }));

  // A usage error, --help or --version has a status of its own.
  return (await parseCommandLine(program, argv)) ?? exitCode;
}

type ThreadRun = (prompt: string | undefined, opts: ExecOptions, target: ThreadTarget) => Promise<void>;

/** Options `exec` accepts and its subcommands accept again after their name, as the reference's global ones. */
interface ReviewOptions extends Partial<ExecOptions> {
  uncommitted?: boolean;
  base?: string;
  commit?: string;
  title?: string;
  failOnPriority?: string;
  config: string[];
}

/** The one review target the options name, or what is wrong with them. */
function reviewTarget(instructions: string | undefined, opts: ReviewOptions): ReviewTarget | string {
  const targets: ReviewTarget[] = [];
  if (opts.uncommitted) targets.push({ type: "uncommittedChanges" });
  if (opts.base !== undefined) targets.push({ type: "baseBranch", branch: opts.base });
  if (opts.commit !== undefined) targets.push({ type: "commit", sha: opts.commit, ...(opts.title !== undefined ? { title: opts.title } : {}) });
  if (instructions !== undefined) targets.push({ type: "custom", instructions });
  if (opts.title !== undefined && opts.commit === undefined) return "--title goes with --commit";
  if (targets.length === 0) return "say what to review: --uncommitted, --base BRANCH, --commit SHA, or instructions as the prompt";
  if (targets.length > 1) return "give one of --uncommitted, --base, --commit or instructions, not several";
  return targets[0] as ReviewTarget;
}

function definedOnly<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

/** `codex-ts review` and `codex-ts exec review`: the same options, headless. */
function reviewCommand(command: Command, run: (instructions: string | undefined, opts: ReviewOptions, cmd: Command) => Promise<void>): void {
  command
    .description("Review code with the review model and print its findings (file:line, priority, explanation).")
    .argument("[instructions]", "what to review and how, instead of one of the targets below")
    .option("--uncommitted", "review staged, unstaged and untracked changes")
    .option("--base <branch>", "review what this branch changes relative to BRANCH")
    .option("--commit <sha>", "review the changes of one commit")
    .option("--title <title>", "with --commit: the commit's title, for the reviewer")
    .option("--fail-on-priority <n>", "exit 1 when a finding has priority N or more urgent (0 is the most urgent)")
    .option("--json", "print events to stdout as JSON Lines (findings as review_finding items)")
    .option("-o, --output-last-message <file>", "also write the review (as printed) to this file")
    .option("--output-schema <file>", "accepted for the Codex SDK's sake; a review's findings keep their own format")
    .option("-m, --model <model>", "model to use (default: review_model, else model)")
    .option("-c, --config <key=value>", "override a config.toml value (repeatable)", collect, [])
    .option("--skip-git-repo-check", "allow running outside a Git repository")
    .option("--ephemeral", "do not keep a session file for this run")
    .addHelpText("after", "\nExit status: 0 when the review ran, whatever it found (unless --fail-on-priority), 1 when it could not run.\n\nExamples:\n  codex-ts review --uncommitted\n  codex-ts exec review --base main --json --fail-on-priority 1")
    .action(async (instructions: string | undefined, opts: ReviewOptions, cmd: Command) => run(instructions, opts, cmd));
}

interface SubcommandOptions extends Partial<ExecOptions> {
  last?: boolean;
  all?: boolean;
}

/**
 * `exec resume` and `exec fork`: `[SESSION_ID] [PROMPT]` or `--last [PROMPT]`. Options given
 * before the subcommand's name belong to exec and still apply; the common ones may also follow it.
 */
function threadCommand(exec: Command, kind: ThreadTarget["kind"], run: ThreadRun): void {
  const description =
    kind === "resume"
      ? "Continue a recorded session: the model sees its history, and new items are appended to its file."
      : "Continue a copy of a recorded session under a new id, leaving the original untouched.";
  exec
    .command(kind)
    .description(description)
    .argument("[session_id]", "the session's id (see `codex-ts sessions`); with --last, the prompt")
    .argument("[prompt]", "what to do next; '-' or nothing reads it from stdin")
    .option("--last", "the most recently active session of the current directory")
    .option("--all", "with --last, consider sessions of every directory")
    .option("-i, --image <file>", "attach image(s) to the prompt (repeatable or comma-separated)", collectList, [])
    .option("--json", "print events to stdout as JSON Lines")
    .addOption(new Option("--experimental-json", "alias of --json").hideHelp())
    .option("-o, --output-last-message <file>", "write the agent's final message to this file")
    .option("-m, --model <model>", "model to use")
    .option("-c, --config <key=value>", "override a config.toml value (repeatable)", collect, [])
    .option("--skip-git-repo-check", "allow running outside a Git repository")
    .option("--ephemeral", "read the session but write nothing")
    .option("--full-auto", "let the agent write in the workspace (same as --sandbox workspace-write)")
    .option("--dangerously-bypass-approvals-and-sandbox", "run every command unconfined and without asking")
    .option("--dangerously-bypass-hook-trust", HOOK_TRUST_HELP)
    .action(async (first: string | undefined, second: string | undefined, sub: SubcommandOptions, cmd: Command) => {
      const parent = cmd.parent?.opts<ExecOptions>() ?? ({ addDir: [], config: [], image: [], color: "auto" } as ExecOptions);
      const { last, all, image, config, ...rest } = sub;
      if (last && second !== undefined) cmd.error("error: give either a session id or --last, not both", { exitCode: 2 });
      // With --last the one positional is the prompt, as in the reference.
      const [sessionId, prompt] = last ? [undefined, first] : [first, second];
      const given = Object.fromEntries(Object.entries(rest).filter(([, v]) => v !== undefined)) as Partial<ExecOptions>;
      const opts: ExecOptions = {
        ...parent,
        ...given,
        image: [...parent.image, ...(image ?? [])],
        config: [...parent.config, ...(config ?? [])],
      };
      await run(prompt, opts, { kind, sessionId, last: last === true, all: all === true });
    });
}

/** The interactive UI's options, shared by `codex-ts [PROMPT]`, `resume` and `fork`. */
function interactiveOptions(command: Command): Command {
  return command
    .option("-m, --model <model>", "model to use, e.g. gpt-5.5")
    .addOption(new Option("-s, --sandbox <mode>", "sandbox for commands the model runs").choices([...SANDBOX_MODES]))
    .addOption(permissionsOption())
    .addOption(new Option("-a, --ask-for-approval <policy>", "when to ask before running a command").choices(["untrusted", "on-failure", "on-request", "never"]))
    .option("-C, --cd <dir>", "work in this directory instead of the current one")
    .option("--add-dir <dir>", "another directory the agent may write to (repeatable)", collect, [])
    .option("-c, --config <key=value>", "override a config.toml value; value parsed as TOML (repeatable)", collect, [])
    .option("-p, --profile <name>", PROFILE_HELP)
    .option("-i, --image <file>", "attach image(s) to the first message (repeatable or comma-separated)", collectList, [])
    .option("--full-auto", "let the agent edit and run commands in the workspace, asking only to go beyond it")
    .option("--dangerously-bypass-approvals-and-sandbox", "run every command unconfined and without asking")
    .option("--dangerously-bypass-hook-trust", HOOK_TRUST_HELP)
    .option("--alt-screen", "use the whole screen instead of printing into the terminal's scrollback (tui.alternate_screen)")
    .option("--no-alt-screen", "print into the terminal's scrollback even if tui.alternate_screen is set")
    .option("--oss", "use a local model server (oss_provider from config, default ollama)")
    .addOption(new Option("--local-provider <provider>", "the local server --oss uses").choices(["ollama", "lmstudio"]))
    .option("--enable <feature>", "turn a feature flag on for this run (repeatable)", collect, [])
    .option("--disable <feature>", "turn a feature flag off for this run (repeatable)", collect, [])
    .option("--strict-config", "refuse config keys this version does not know (otherwise a warning)")
    .addOption(searchOption())
    .option("--remote <addr>", "run the UI against an app-server elsewhere (ws://HOST:PORT); -m, -s, -a and -C go to its threads")
    .option("--remote-auth-token-env <var>", "with --remote: the environment variable holding the server's bearer token");
}

/**
 * `codex-ts resume [ID|NAME] [PROMPT]` and `codex-ts fork [ID|NAME] [PROMPT]` (or `--last
 * [PROMPT]`): the UI on a recorded thread, with a first message when a prompt is given.
 */
function tuiThreadCommand(program: Command, kind: ThreadTarget["kind"], run: (opts: TuiOptions, start: TuiStart) => Promise<void>): void {
  const description =
    kind === "resume"
      ? "Open the interactive UI on a recorded session (a picker when no id or name is given)."
      : "Open the interactive UI on a copy of a recorded session; without a terminal, print the new id.";
  const command = interactiveOptions(program.command(kind))
    .description(description)
    .argument("[session]", "the session's id (see `codex-ts sessions`) or its name (/rename); an id wins when the text is one")
    .argument("[prompt]", "a first message to send once it is open; with --last, the only argument")
    .option("--last", `${kind === "resume" ? "continue" : "fork"} the most recent session of the current directory`)
    .option("--all", "consider the sessions of every directory");
  if (kind === "resume") command.option("--include-non-interactive", "also consider sessions of codex-ts exec and other non-interactive runs");
  command.action(async (first: string | undefined, second: string | undefined, opts: TuiOptions & { last?: boolean; all?: boolean; includeNonInteractive?: boolean }, cmd: Command) => {
    const { last, all, includeNonInteractive, ...rest } = opts;
    if (last && second !== undefined) cmd.error("error: give either a session or --last, not both", { exitCode: 2 });
    const [sessionId, prompt] = last ? [undefined, first] : [first, second];
    // Options given before the subcommand's name (`codex-ts -c k=v resume`) still apply.
    const parent = cmd.parent?.opts<TuiOptions>();
    const merged: TuiOptions = { ...parent, ...definedOnly(rest), config: [...(parent?.config ?? []), ...rest.config], addDir: [...(parent?.addDir ?? []), ...rest.addDir], image: [...(parent?.image ?? []), ...rest.image] };
    const pick = sessionId === undefined && !last;
    const target: ThreadTarget = { kind, sessionId, last: last === true, all: all === true, interactiveOnly: includeNonInteractive !== true };
    await run(merged, { target, pick, ...(prompt !== undefined ? { prompt } : {}) });
  });
}
