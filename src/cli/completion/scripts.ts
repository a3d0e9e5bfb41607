/**
 * Completion scripts for bash, zsh, fish, elvish and PowerShell, generated from the command tree
 * (command-tree.ts). Each script does the same three things in its shell's own terms: follow the
 * words typed so far down the subcommands, offer an option's fixed values (or files) right after
 * it, and otherwise offer the current command's subcommands, options and argument values.
 */
import type { CompletionCommand, CompletionOption } from "./command-tree.js";

export const COMPLETION_SHELLS = ["bash", "zsh", "fish", "elvish", "powershell"] as const;
export type CompletionShell = (typeof COMPLETION_SHELLS)[number];

export function completionScript(shell: CompletionShell, tree: CompletionCommand[]): string {
  const program = tree[0]?.path ?? "codex-ts";
  const fnName = `_${program.replace(/[^A-Za-z0-9]/g, "_")}`;
  switch (shell) {
    case "bash":
      return bashScript(program, fnName, tree);
    case "zsh":
      return zshScript(program, fnName, tree);
    case "fish":
      return fishScript(program, fnName, tree);
    case "elvish":
      return elvishScript(program, tree);
    case "powershell":
      return powershellScript(program, tree);
  }
}

/** `path,word` → the subcommand's path, for every subcommand name and alias. */
function transitions(tree: CompletionCommand[]): [string, string][] {
  return tree.flatMap((c) => c.subcommands.flatMap((s) => s.names.map((n): [string, string] => [`${c.path},${n}`, s.path])));
}

const valued = (c: CompletionCommand): CompletionOption[] => c.options.filter((o) => o.takesValue);
const words = (c: CompletionCommand): string[] => [...c.subcommands.flatMap((s) => s.names), ...c.options.flatMap((o) => o.names), ...c.argumentChoices];

function bashScript(program: string, fn: string, tree: CompletionCommand[]): string {
  const walk = transitions(tree).map(([from, to]) => `            "${from}") cmdpath="${to}" ;;`);
  const values = tree.flatMap((c) =>
    valued(c).map((o) => {
      const pattern = o.names.map((n) => `"${c.path},${n}"`).join("|");
      const reply = o.choices.length > 0 ? `COMPREPLY=($(compgen -W "${o.choices.join(" ")}" -- "$cur"))` : `COMPREPLY=($(compgen -f -- "$cur"))`;
      return `        ${pattern}) ${reply}; return 0 ;;`;
    }),
  );
  const lists = tree.map((c) => `        "${c.path}") opts="${words(c).join(" ")}"${c.freeArgument ? " files=1" : ""} ;;`);
  return `# bash completion for ${program}: source it, e.g. from ~/.bashrc: eval "$(${program} completion bash)"
${fn}() {
    local cur prev cmdpath opts files i
    cur="\${COMP_WORDS[COMP_CWORD]}"
    prev="\${COMP_WORDS[COMP_CWORD-1]}"
    cmdpath="${program}"
    for ((i = 1; i < COMP_CWORD; i++)); do
        case "$cmdpath,\${COMP_WORDS[i]}" in
${walk.join("\n")}
        esac
    done
    case "$cmdpath,$prev" in
${values.join("\n")}
    esac
    opts=""
    files=""
    case "$cmdpath" in
${lists.join("\n")}
    esac
    COMPREPLY=($(compgen -W "$opts" -- "$cur"))
    if [[ -n "$files" && "$cur" != -* ]]; then
        COMPREPLY+=($(compgen -f -- "$cur"))
    fi
    return 0
}
complete -F ${fn} ${program}
`;
}

function zshScript(program: string, fn: string, tree: CompletionCommand[]): string {
  const q = (text: string): string => `'${text.replace(/'/g, "'\\''")}'`;
  const walk = transitions(tree).map(([from, to]) => `            ${q(from)}) cmdpath=${q(to)} ;;`);
  const values = tree.flatMap((c) =>
    valued(c).map((o) => {
      const pattern = o.names.map((n) => q(`${c.path},${n}`)).join("|");
      const reply = o.choices.length > 0 ? `compadd -- ${o.choices.map(q).join(" ")}` : "_files";
      return `        ${pattern}) ${reply}; return ;;`;
    }),
  );
  const lists = tree.map((c) => {
    const items = [
      ...c.subcommands.flatMap((s) => s.names.map((n) => q(`${n}:${s.description}`))),
      ...c.options.flatMap((o) => o.names.map((n) => q(`${n}:${o.description}`))),
      ...c.argumentChoices.map((v) => q(v)),
    ];
    return `        ${q(c.path)}) items=(${items.join(" ")})${c.freeArgument ? " files=1" : ""} ;;`;
  });
  return `#compdef ${program}
# zsh completion for ${program}: put it in a folder of $fpath as _${program}, or eval "$(${program} completion zsh)" after compinit.
${fn}() {
    local cmdpath=${q(program)} prev="\${words[CURRENT-1]}" files="" i
    local -a items
    for ((i = 2; i < CURRENT; i++)); do
        case "$cmdpath,\${words[i]}" in
${walk.join("\n")}
        esac
    done
    case "$cmdpath,$prev" in
${values.join("\n")}
    esac
    case "$cmdpath" in
${lists.join("\n")}
    esac
    _describe -t commands ${q(program)} items
    [[ -z "$files" || "\${words[CURRENT]}" == -* ]] || _files
}
if [[ "\${zsh_eval_context[-1]}" == loadautofunc ]]; then
    ${fn} "$@"
else
    compdef ${fn} ${program}
fi
`;
}

function fishScript(program: string, fn: string, tree: CompletionCommand[]): string {
  const q = (text: string): string => `'${text.replace(/\\/g, "\\\\").replace(/'/g, "\\'")}'`;
  const walk = transitions(tree).map(([from, to]) => `            case ${q(from)}\n                set cmdpath ${q(to)}`);
  const lines: string[] = [];
  for (const c of tree) {
    const at = `-n "${fn}_at ${q(c.path).replace(/"/g, '\\"')}"`;
    for (const s of c.subcommands) for (const n of s.names) lines.push(`complete -c ${program} ${at} -a ${q(n)} -d ${q(s.description)}`);
    for (const o of c.options) {
      const spell = o.names.map((n) => (n.startsWith("--") ? `-l ${n.slice(2)}` : `-s ${n.slice(1)}`)).join(" ");
      const value = !o.takesValue ? "" : o.choices.length > 0 ? ` -x -a ${q(o.choices.join(" "))}` : " -r -F";
      lines.push(`complete -c ${program} ${at} ${spell}${value} -d ${q(o.description)}`);
    }
    if (c.argumentChoices.length > 0) lines.push(`complete -c ${program} ${at} -a ${q(c.argumentChoices.join(" "))}`);
    if (c.freeArgument) lines.push(`complete -c ${program} ${at} -F`);
  }
  return `# fish completion for ${program}: ${program} completion fish > ~/.config/fish/completions/${program}.fish
function ${fn}_path
    set -l cmdpath ${q(program)}
    for word in (commandline -opc)[2..-1]
        switch "$cmdpath,$word"
${walk.join("\n")}
        end
    end
    echo $cmdpath
end
function ${fn}_at
    set -l cmdpath (${fn}_path)
    test "$cmdpath" = "$argv[1]"
end
complete -c ${program} -f
${lines.join("\n")}
`;
}

function elvishScript(program: string, tree: CompletionCommand[]): string {
  const q = (text: string): string => `'${text.replace(/'/g, "''")}'`;
  const subs = tree.map((c) => `  &${q(c.path)}=[${c.subcommands.flatMap((s) => s.names.map((n) => `&${q(n)}=${q(s.path)}`)).join(" ") || "&"}]`);
  const values = tree.map((c) => {
    const entries = valued(c).flatMap((o) => o.names.map((n) => `&${q(n)}=[${o.choices.map(q).join(" ")}]`));
    return `  &${q(c.path)}=[${entries.join(" ") || "&"}]`;
  });
  const items = tree.map((c) => {
    const entries = [
      ...c.subcommands.flatMap((s) => s.names.map((n) => `[${q(n)} ${q(s.description)}]`)),
      ...c.options.flatMap((o) => o.names.map((n) => `[${q(n)} ${q(o.description)}]`)),
      ...c.argumentChoices.map((v) => `[${q(v)} '']`),
    ];
    return `  &${q(c.path)}=[${entries.join(" ")}]`;
  });
  return `# elvish completion for ${program}: eval (${program} completion elvish | slurp)
var ${program.replace(/[^A-Za-z0-9]/g, "-")}-completion-subcommands = [
${subs.join("\n")}
]
set edit:completion:arg-completer[${program}] = {|@words|
  var subcommands = $${program.replace(/[^A-Za-z0-9]/g, "-")}-completion-subcommands
  var values = [
${values.join("\n")}
  ]
  var items = [
${items.join("\n")}
  ]
  var cmdpath = ${q(program)}
  for word $words[1..(- (count $words) 1)] {
    if (has-key $subcommands[$cmdpath] $word) { set cmdpath = $subcommands[$cmdpath][$word] }
  }
  var current = $words[-1]
  var prev = ''
  if (> (count $words) 2) { set prev = $words[-2] }
  if (has-key $values[$cmdpath] $prev) {
    var fixed = $values[$cmdpath][$prev]
    if (== (count $fixed) 0) { edit:complete-filename $current } else { all $fixed }
  } else {
    for item $items[$cmdpath] { edit:complex-candidate $item[0] &display=$item[0]' '$item[1] }
  }
}
`;
}

function powershellScript(program: string, tree: CompletionCommand[]): string {
  const q = (text: string): string => `'${text.replace(/'/g, "''")}'`;
  const walk = transitions(tree).map(([from, to]) => `    ${q(from)} = ${q(to)}`);
  const values = tree.flatMap((c) => valued(c).flatMap((o) => o.names.map((n) => `    ${q(`${c.path},${n}`)} = @(${o.choices.map(q).join(", ")})`)));
  const items = tree.map((c) => {
    const entries = [
      ...c.subcommands.flatMap((s) => s.names.map((n) => `@(${q(n)}, ${q(s.description || n)})`)),
      ...c.options.flatMap((o) => o.names.map((n) => `@(${q(n)}, ${q(o.description || n)})`)),
      ...c.argumentChoices.map((v) => `@(${q(v)}, ${q(v)})`),
    ];
    return `    ${q(c.path)} = @(${entries.join(", ")})`;
  });
  return `# PowerShell completion for ${program}: ${program} completion powershell | Out-String | Invoke-Expression
Register-ArgumentCompleter -Native -CommandName ${q(program)} -ScriptBlock {
    param($wordToComplete, $commandAst, $cursorPosition)
    $subcommands = @{
${walk.join("\n")}
    }
    $values = @{
${values.join("\n")}
    }
    $items = @{
${items.join("\n")}
    }
    $cmdpath = ${q(program)}
    $prev = ''
    foreach ($element in $commandAst.CommandElements | Select-Object -Skip 1) {
        if ($element.Extent.EndOffset -ge $cursorPosition) { break }
        $word = $element.ToString()
        if ($subcommands.ContainsKey("$cmdpath,$word")) { $cmdpath = $subcommands["$cmdpath,$word"] }
        $prev = $word
    }
    if ($values.ContainsKey("$cmdpath,$prev")) {
        $fixed = $values["$cmdpath,$prev"]
        if ($fixed.Count -eq 0) { return }
        $fixed | Where-Object { $_ -like "$wordToComplete*" } | ForEach-Object {
            [System.Management.Automation.CompletionResult]::new($_, $_, 'ParameterValue', $_)
        }
        return
    }
    $items[$cmdpath] | Where-Object { $_[0] -like "$wordToComplete*" } | ForEach-Object {
        [System.Management.Automation.CompletionResult]::new($_[0], $_[0], 'ParameterName', $_[1])
    }
}
`;
}
