import { test } from "node:test";
import assert from "node:assert/strict";
import { Option } from "commander";
import { USAGE_ERROR, createProgram, parseCommandLine } from "./parse-errors.js";

/**
 * A small command tree shaped like codex-ts's: a root that takes a prompt (as the interactive
 * UI will), a `run` command with a prompt, choices and a subcommand, and a command with no
 * arguments but a subcommand.
 */
function tool(): { parse: (...args: string[]) => Promise<{ status: number | null; stderr: string; ran: string[] }> } {
  return {
    async parse(...args) {
      let stderr = "";
      const ran: string[] = [];
      const program = createProgram("tool").configureOutput({ writeErr: (s) => (stderr += s), writeOut: () => undefined });
      const run = program
        .command("run")
        .argument("[prompt]")
        .addOption(new Option("-s, --sandbox <mode>").choices(["read-only", "workspace-write", "danger-full-access"]))
        .option("--json")
        .action((prompt?: string) => void ran.push(`run ${prompt ?? ""}`));
      run.command("resume").action(() => void ran.push("resume"));
      program
        .command("login")
        .action(() => void ran.push("login"))
        .command("status")
        .action(() => void ran.push("status"));
      program
        .command("mcp")
        .command("list")
        .action(() => void ran.push("list"));
      program.argument("[prompt]").action((prompt?: string) => void ran.push(`root ${prompt ?? ""}`));
      const status = await parseCommandLine(program, ["node", "tool", ...args]);
      return { status, stderr, ran };
    },
  };
}

void test("a bare word close to a subcommand is an unknown subcommand with a suggestion, exit 2", async () => {
  const r = await tool().parse("rnu");
  assert.equal(r.status, USAGE_ERROR);
  assert.deepEqual(r.ran, []);
  assert.equal(
    r.stderr,
    ["error: unknown subcommand 'rnu' (did you mean run?)", "", "Usage: tool [OPTIONS] [PROMPT]", "       tool [OPTIONS] <COMMAND> [ARGS]", "Try 'tool --help' for more information.", ""].join("\n"),
  );
  // Followed by the subcommand's own argument, it is still the subcommand mistyped.
  const withPrompt = await tool().parse("rnu", "fix the bug");
  assert.equal(withPrompt.status, USAGE_ERROR);
  assert.match(withPrompt.stderr, /^error: unknown subcommand 'rnu' \(did you mean run\?\)\n/);
  const nested = await tool().parse("run", "resum");
  assert.equal(nested.status, USAGE_ERROR);
  assert.match(nested.stderr, /^error: unknown subcommand 'resum' \(did you mean resume\?\)\n\nUsage: tool run \[OPTIONS\] \[PROMPT\]\n/);
});

void test("a prompt is still a prompt: several words, a quoted sentence, or a word unlike any subcommand", async () => {
  assert.deepEqual((await tool().parse("fix the bug")).ran, ["root fix the bug"]);
  assert.deepEqual((await tool().parse("refactor")).ran, ["root refactor"]);
  assert.deepEqual((await tool().parse("run", "hello")).ran, ["run hello"]);
  assert.deepEqual((await tool().parse("run")).ran, ["run "]);
});

void test("an unknown option suggests the nearest one", async () => {
  const r = await tool().parse("run", "--jsn", "hi");
  assert.equal(r.status, USAGE_ERROR);
  assert.match(r.stderr, /^error: unknown option '--jsn' \(did you mean --json\?\)\n\nUsage: tool run \[OPTIONS\] \[PROMPT\]\n {7}tool run \[OPTIONS\] <COMMAND> \[ARGS\]\nTry 'tool run --help' for more information\.\n$/);
  assert.match((await tool().parse("run", "--nothing-like-it")).stderr, /^error: unknown option '--nothing-like-it'\n/);
});

void test("a value outside an option's choices lists them and suggests the nearest", async () => {
  const near = await tool().parse("run", "-s", "workspace-writ", "hi");
  assert.equal(near.status, USAGE_ERROR);
  assert.match(near.stderr, /^error: invalid value 'workspace-writ' for --sandbox <mode>: expected one of read-only, workspace-write, danger-full-access \(did you mean workspace-write\?\)\n/);
  const far = await tool().parse("run", "--sandbox", "bogus");
  assert.match(far.stderr, /^error: invalid value 'bogus' for --sandbox <mode>: expected one of read-only, workspace-write, danger-full-access\n/);
  const missing = await tool().parse("run", "-s");
  assert.match(missing.stderr, /^error: --sandbox <mode> needs a value \(one of read-only, workspace-write, danger-full-access\)\n/);
});

void test("extra words: an unknown subcommand where a command takes none, else a hint to quote the prompt", async () => {
  const sub = await tool().parse("login", "stauts");
  assert.equal(sub.status, USAGE_ERROR);
  assert.match(sub.stderr, /^error: unknown subcommand 'stauts' \(did you mean status\?\)\n\nUsage: tool login \[OPTIONS\] \[COMMAND\]\n/);
  const words = await tool().parse("run", "fix", "the", "bug");
  assert.match(words.stderr, /^error: unexpected argument 'the' \(a prompt of several words goes in quotes: tool run "fix the bug"\)\n/);
  const mcp = await tool().parse("mcp", "lst");
  assert.match(mcp.stderr, /^error: unknown subcommand 'lst' \(did you mean list\?\)\n\nUsage: tool mcp \[OPTIONS\] <COMMAND>\n/);
});

void test("--help exits 0; help shown for a missing subcommand exits 2", async () => {
  assert.equal((await tool().parse("--help")).status, 0);
  assert.equal((await tool().parse("mcp")).status, USAGE_ERROR);
  assert.equal((await tool().parse("login")).status, null, "a command with an action of its own just runs");
});
