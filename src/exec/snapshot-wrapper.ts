/**
 * Rewrites a login-shell command (`SHELL -lc SCRIPT [ARG0 ARGS…]`) so that it runs in a plain
 * shell that sources the session's snapshot first, instead of re-running the start-up files.
 *
 * - Same shell as the snapshot's (the usual case: shell_command, exec_command, `!cmd`): the
 *   program the command named sources the snapshot and then `eval`s the script, so the
 *   functions, aliases and options of the start-up files are there as they were in the login
 *   shell, and the script is parsed only after they are (an alias or `shopt -s extglob` applies
 *   from its first line). $0 and the arguments stay those of the original command.
 * - Another shell (a zsh user's model asking for `bash -lc`): the snapshot is in the user's
 *   shell's language, so the user's shell sources it and then `exec`s the requested shell, as
 *   the reference does; only the exported environment carries over.
 *
 * Sourcing is best effort: if the file cannot be read the command still runs. Variables named in
 * `keep` (shell_environment_policy's `set`, exec_command's own settings) get back the command's
 * own value, or stay unset, after the snapshot is sourced, so they win over what the start-up
 * files exported. The lines after the snapshot call builtins by name, since the snapshot may
 * define functions that shadow them.
 */
import { snapshotShellKind, type SnapshotShellKind } from "./shell-snapshot-scripts.js";

export interface SnapshotRef {
  path: string;
  shell: string;
  kind: SnapshotShellKind;
}

const NAME = /^[A-Za-z_][A-Za-z0-9_]*$/;

/** Null when `argv` is not a login-shell command. */
export function wrapWithSnapshot(argv: readonly string[], snapshot: SnapshotRef, keep: readonly string[] = []): string[] | null {
  if (argv.length < 3 || argv[1] !== "-lc") return null;
  const [program, , script, ...rest] = argv as [string, string, string, ...string[]];
  const names = [...new Set(keep.filter((n) => NAME.test(n)))].sort();
  const lines: string[] = [];
  names.forEach((name, i) => lines.push(`__codex_keep_set_${i}="\${${name}+x}"; __codex_keep_${i}="\${${name}-}"`));
  lines.push(`if . ${quote(snapshot.path)} >/dev/null 2>&1; then :; fi`);
  names.forEach((name, i) =>
    lines.push(`if builtin test -n "$__codex_keep_set_${i}"; then builtin export ${name}="$__codex_keep_${i}"; else builtin unset ${name}; fi`),
  );
  if (names.length > 0) lines.push(`builtin unset ${names.flatMap((_, i) => [`__codex_keep_set_${i}`, `__codex_keep_${i}`]).join(" ")}`);
  // bash -c reads ~/.bashrc by itself when its stdin is a socket (Node's pipes are) and SHLVL
  // is below 2; the snapshot already holds what that file does.
  const flags = snapshot.kind === "bash" ? ["--norc", "-c"] : ["-c"];
  if (snapshotShellKind(program) === snapshot.kind) {
    lines.push(`builtin eval ${quote(script)}`);
    return [program, ...flags, lines.join("\n"), ...rest];
  }
  lines.push(`exec ${[program, "-c", script, ...rest].map(quote).join(" ")}`);
  return [snapshot.shell, ...flags, lines.join("\n")];
}

function quote(s: string): string {
  return `'${s.replace(/'/g, `'"'"'`)}'`;
}
