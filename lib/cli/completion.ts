// The shell completion script, generated from every command's definition (`config --completion bash|zsh`):
// flags anywhere, a flag's choices after it, the subcommand as the first argument, files otherwise.
import type { CommandDef } from './command.js';
import { COMMANDS } from './commands/index.js';
import { UserError } from '../base/errors.js';

const BUILTIN_WORDS = ['--help', '-h', '--version', '-V'];

/** A word list for a single-quoted shell string (names are [a-z0-9-], choices too; a quote is refused). */
function words(xs: readonly string[]): string {
  for (const x of xs)
    if (!/^[A-Za-z0-9_.:,-]+$/.test(x)) throw new Error(`completion: ${JSON.stringify(x)} is not a plain word`);
  return xs.join(' ');
}

function caseArm(def: CommandDef): string {
  const flags = Object.keys(def.flags).map((n) => `--${n}`);
  const valued = Object.entries(def.flags)
    .filter(([, s]) => s.type === 'string')
    .map(([n]) => `--${n}`);
  const subs = def.subcommands?.map((s) => s.name) ?? [];
  return `    ${def.name}) flags='${words([...flags, ...BUILTIN_WORDS])}' valued=' ${words(valued)} ' subs='${words(subs)}' ;;`;
}

function choiceArms(defs: readonly CommandDef[]): string[] {
  return defs.flatMap((def) =>
    Object.entries(def.flags)
      .filter(([, s]) => s.choices?.length)
      .map(([n, s]) => `      '${def.name} --${n}') COMPREPLY=($(compgen -W '${words(s.choices!)}' -- "$cur")) ;;`),
  );
}

/** The bash script (zsh runs the same through bashcompinit). */
function bashCompletion(defs: readonly CommandDef[] = COMMANDS): string {
  const names = defs.map((d) => d.name);
  return `# judgeloop's shell completion, generated from the command definitions by \`config --completion bash\`.
# Load it in a shell: source <(judgeloop config --completion bash); or save it as
# ~/.local/share/bash-completion/completions/judgeloop (and a link named jl, and one per bin/ command you use).
_judgeloop_complete() {
  # zsh (through bashcompinit) counts array elements from 1, bash from 0.
  local o=0 s=0 cur prev='' cmd flags='' valued='' subs='' i w
  [ -n "\${ZSH_VERSION-}" ] && o=1
  cur="\${COMP_WORDS[COMP_CWORD+o]}" cmd="\${COMP_WORDS[o]##*/}"
  [ "\${COMP_CWORD}" -gt 0 ] && prev="\${COMP_WORDS[COMP_CWORD-1+o]}"
  COMPREPLY=()
  # judgeloop <command> …: the command's words, one word further on.
  if [ "$cmd" = judgeloop ] || [ "$cmd" = jl ]; then
    if [ "$COMP_CWORD" -le 1 ]; then
      COMPREPLY=($(compgen -W '${words(['help', ...names])} --help --version' -- "$cur"))
      return 0
    fi
    if [ "\${COMP_WORDS[1+o]}" = help ]; then
      [ "$COMP_CWORD" -eq 2 ] && COMPREPLY=($(compgen -W '${words(names)}' -- "$cur"))
      return 0
    fi
    s=1 cmd="\${COMP_WORDS[1+o]}"
  fi
  case "$cmd" in
${defs.map(caseArm).join('\n')}
    *) return 0 ;;
  esac
  # The value of an option: its choices, else the shell's default (file names).
  if [[ "$prev" == --* && "$valued" == *" $prev "* ]]; then
    case "$cmd $prev" in
${choiceArms(defs).join('\n')}
    esac
    return 0
  fi
  if [[ "$cur" == -* ]]; then
    COMPREPLY=($(compgen -W "$flags" -- "$cur"))
    return 0
  fi
  # The first word that is neither an option nor an option's value names the subcommand.
  if [ -n "$subs" ]; then
    for ((i = 1 + s; i < COMP_CWORD; i++)); do
      w="\${COMP_WORDS[i+o]}" prev="\${COMP_WORDS[i-1+o]}"
      [[ "$w" == -* ]] && continue
      [[ "$prev" == --* && "$valued" == *" $prev "* ]] && continue
      return 0
    done
    COMPREPLY=($(compgen -W "$subs" -- "$cur"))
  fi
  return 0
}
complete -o default -F _judgeloop_complete judgeloop jl ${names.join(' ')}
`;
}

export function completionScript(shell: string, defs: readonly CommandDef[] = COMMANDS): string {
  if (shell === 'bash') return bashCompletion(defs);
  if (shell === 'zsh')
    return `# judgeloop's completion for zsh: the bash script through bashcompinit. Load it: source <(judgeloop config --completion zsh)\n(( $+functions[compdef] )) || { autoload -U +X compinit && compinit; }\nautoload -U +X bashcompinit && bashcompinit\n${bashCompletion(defs)}`;
  throw new UserError(`config: --completion ${JSON.stringify(shell)}: expected bash or zsh`);
}
