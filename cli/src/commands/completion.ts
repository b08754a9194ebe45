import type { Command, Option } from "commander";
import type { Context } from "../context";
import { example } from "./examples";
import { usageError } from "../errors";

/**
 * `completion bash|zsh` prints a script that asks the CLI itself (`brokerdesk __complete -- <words>`) what may
 * come next: commands, options, an option's choices. The tool commands come from the cached skills listing, so a
 * new skill completes without a new script.
 */

const BASH = `# brokerdesk completion for bash: eval "$(brokerdesk completion bash)"
_brokerdesk() {
  local cur="\${COMP_WORDS[COMP_CWORD]}"
  local IFS=$'\\n'
  COMPREPLY=( $(compgen -W "$(brokerdesk __complete -- "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" -- "$cur") )
}
complete -o default -F _brokerdesk brokerdesk
`;

const ZSH = `#compdef brokerdesk
# brokerdesk completion for zsh: eval "$(brokerdesk completion zsh)"
_brokerdesk() {
  local -a items
  items=("\${(@f)$(brokerdesk __complete -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  compadd -a items
}
compdef _brokerdesk brokerdesk
`;

const visible = (c: Command) => c.name() !== "__complete" && c.name() !== "help";
const longFlag = (o: Option) => o.long ?? o.short ?? "";

/** What may follow `words` (the last one being typed, maybe empty). */
export function completions(program: Command, words: string[]): string[] {
  let command = program;
  const typed = words.slice(0, -1);
  const current = words[words.length - 1] ?? "";
  let pending: Option | undefined;
  for (const word of typed) {
    if (pending) {
      pending = undefined;
      continue;
    }
    if (word.startsWith("-")) {
      const option = [...command.options, ...program.options].find((o) => o.long === word || o.short === word);
      if (option && (option.required || option.optional)) pending = option;
      continue;
    }
    const sub = command.commands.find((c) => c.name() === word || c.aliases().includes(word));
    if (sub) command = sub;
    else if (command.commands.length) return []; // not a command this one has: nothing sensible follows
  }
  if (pending) return pending.argChoices ?? [];
  if (current.startsWith("-")) {
    const options = command === program ? program.options : [...command.options, ...program.options];
    return [...options.filter((o) => !o.hidden).map(longFlag), "--help"];
  }
  return command.commands.filter(visible).map((c) => c.name());
}

export function addCompletionCommands(program: Command, ctx: Context): void {
  example(program.command("completion"), "echo 'eval \"$(brokerdesk completion bash)\"' >> ~/.bashrc")
    .summary("print the shell completion script (bash or zsh)")
    .argument("<shell>", "bash or zsh")
    .action((shell: string) => {
      if (shell !== "bash" && shell !== "zsh") throw usageError(`No completion for "${shell}": bash or zsh.`);
      ctx.io.stdout.write(shell === "bash" ? BASH : ZSH);
    });
  program
    .command("__complete", { hidden: true })
    .argument("[words...]")
    .action((words: string[] = []) => {
      ctx.io.stdout.write(completions(program, words.length ? words : [""]).join("\n") + "\n");
    });
}
