import type { Command } from "commander";

/** Every command's example: under its own --help, and all of them in `brokerdesk --help`. */

const EXAMPLES = new WeakMap<Command, string>();

export function example(command: Command, line: string, note = ""): Command {
  EXAMPLES.set(command, line);
  return command.addHelpText("after", `\nExample:\n  $ ${line}\n${note ? `\n${note}\n` : ""}`);
}

function leaves(command: Command, path: string[]): { path: string[]; command: Command }[] {
  const subs = command
    .createHelp()
    .visibleCommands(command)
    .filter((c) => c.name() !== "help");
  if (!subs.length) return [{ path, command }];
  return subs.flatMap((c) => leaves(c, [...path, c.name()]));
}

/** Each command with its summary and example, for the root's help. */
export function overview(program: Command): string {
  const lines: string[] = [];
  for (const { path, command } of leaves(program, [])) {
    if (!path.length) continue;
    lines.push(`  ${path.join(" ").padEnd(34)} ${command.summary() || command.description().split("\n")[0]}`);
    const line = EXAMPLES.get(command);
    if (line) lines.push(`      $ ${line}`);
  }
  return lines.join("\n");
}
