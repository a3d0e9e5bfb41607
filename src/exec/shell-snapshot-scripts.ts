/**
 * The scripts that dump a user's shell state into a snapshot file, one per supported shell.
 * Each runs in a login shell (so the profile chain has run), sources the interactive rc file the
 * way the reference does, then prints, after a marker line, shell code that recreates the
 * functions, options, aliases and exported variables it ends up with. Anything the start-up
 * files print before the marker is dropped by the caller. The dump calls builtins explicitly,
 * since the rc files may have defined functions of the same names.
 */

export type SnapshotShellKind = "bash" | "zsh";

/** The first line of every snapshot; start-up chatter before it is cut off. */
export const SNAPSHOT_MARKER = "# codex-ts shell snapshot";

/**
 * Exported names a snapshot never records: the directory ones belong to the command's own cwd,
 * SHLVL and `_` to the shell that runs it, and the CODEX_* markers are set per command by
 * codex-ts (thread id, sandbox kind, network flag), so an old value must never replace them.
 */
export const UNRECORDED_EXPORTS: readonly string[] = [
  "PWD",
  "OLDPWD",
  "SHLVL",
  "_",
  "CODEX_THREAD_ID",
  "CODEX_SANDBOX",
  "CODEX_SANDBOX_NETWORK_DISABLED",
];

/** Which snapshot dialect a shell program speaks, by its file name; null: not supported. */
export function snapshotShellKind(shellPath: string): SnapshotShellKind | null {
  const name = shellPath.slice(shellPath.lastIndexOf("/") + 1);
  if (name === "bash") return "bash";
  if (name === "zsh") return "zsh";
  return null;
}

export function snapshotScript(kind: SnapshotShellKind): string {
  return kind === "bash" ? bashScript() : zshScript();
}

/** A `case` pattern list (`PWD|OLDPWD|…`) matching the names left out. */
function unrecordedPattern(): string {
  return UNRECORDED_EXPORTS.join("|");
}

/**
 * bash: a login shell reads the profile chain but not ~/.bashrc, which is where pyenv, nvm and
 * conda put their set-up; it is sourced here unless BASH_ENV already pointed bash at a file.
 * `set +o` and `shopt -p` print commands that restore every option; the two shopt options that
 * only describe how the shell was started cannot be set and are left out. Each exported variable
 * is printed by `${!name@A}` where bash has it (4.4 and later): `declare -p` inside `$(…)` forks
 * a subshell per variable, about 3 ms each, which made the snapshot ten times slower and the
 * session's first command wait on it.
 *
 * The order of the file matters when it is sourced: options first (a function body may need
 * extglob to parse), then exports, so that both run before any function the rc files defined
 * (one named `declare` or `set` would otherwise take their place); aliases last, so none is
 * expanded inside a function definition.
 */
function bashScript(): string {
  return `if [ -z "\${BASH_ENV:-}" ] && [ -r "$HOME/.bashrc" ]; then . "$HOME/.bashrc"; fi
builtin printf '%s\\n' '${SNAPSHOT_MARKER}' 'unalias -a 2>/dev/null || true' '# options'
builtin set +o
while IFS= read -r __codex_line; do
  case "$__codex_line" in *" login_shell" | *" restricted_shell") ;; *) builtin printf '%s\\n' "$__codex_line" ;; esac
done < <(builtin shopt -p)
builtin printf '%s\\n' '# exports'
__codex_fast_decl=0
if (( BASH_VERSINFO[0] > 4 || (BASH_VERSINFO[0] == 4 && BASH_VERSINFO[1] >= 4) )); then __codex_fast_decl=1; fi
for __codex_name in $(builtin compgen -e); do
  case "$__codex_name" in ${unrecordedPattern()}) continue ;; esac
  if (( __codex_fast_decl )); then
    case "\${!__codex_name@a}" in *r*) continue ;; esac
    builtin printf '%s\\n' "\${!__codex_name@A}"
    continue
  fi
  __codex_decl=$(builtin declare -p "$__codex_name" 2>/dev/null) || continue
  __codex_flags=\${__codex_decl#declare -}
  case "\${__codex_flags%% *}" in *r*) continue ;; esac
  builtin printf '%s\\n' "$__codex_decl"
done
builtin printf '%s\\n' '# functions'
builtin declare -f
while IFS= read -r __codex_line; do
  case "$__codex_line" in "declare -fx "*) builtin printf 'builtin export -f %s\\n' "\${__codex_line#declare -fx }" ;; esac
done < <(builtin declare -F)
builtin printf '%s\\n' '# aliases'
builtin alias -p
`;
}

/**
 * zsh: a login shell reads .zshenv, .zprofile and .zlogin but not .zshrc, which is sourced
 * here. `setopt` lists the options that differ from zsh's defaults; the ones that describe how
 * the shell was started cannot be changed later and are left out. Exported values are quoted
 * by zsh itself (`(q)`), so any byte survives the round trip. The order is bash's, for the
 * same reasons (zsh expands aliases even in scripts, so they must come after the functions).
 */
function zshScript(): string {
  return `__codex_rc="\${ZDOTDIR:-$HOME}/.zshrc"
if [[ -r "$__codex_rc" ]]; then . "$__codex_rc"; fi
builtin print -r -- '${SNAPSHOT_MARKER}'
builtin print -r -- "unalias -m '*' 2>/dev/null || true"
builtin print -r -- '# options'
for __codex_opt in $(builtin setopt); do
  case "$__codex_opt" in login|interactive|shinstdin|privileged|restricted|zle|monitor) ;; *) builtin print -r -- "setopt $__codex_opt" ;; esac
done
builtin print -r -- '# exports'
for __codex_name in \${(k)parameters}; do
  case "$__codex_name" in ${unrecordedPattern()}|__codex_*) continue ;; esac
  [[ \${parameters[$__codex_name]} == *export* && \${parameters[$__codex_name]} != *readonly* ]] || continue
  builtin print -r -- "export $__codex_name=\${(q)\${(P)__codex_name}}"
done
builtin print -r -- '# functions'
builtin functions
builtin print -r -- '# aliases'
builtin alias -L
`;
}
