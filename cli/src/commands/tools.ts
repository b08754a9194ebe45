import { Command, Option } from "commander";
import { readFileSync } from "node:fs";
import type { Context } from "../context";
import { usageError } from "../errors";
import { GROUP_DESCRIPTIONS } from "../skills/naming";
import { exampleLine, type ToolCommand } from "../skills/plan";
import type { ArgSpec } from "../skills/schema-args";
import { example } from "./examples";
import { runSkill } from "./run-skill";

/** One commander command a planned skill command (`skills/plan.ts`): its options, its example, its action. */

function optionFor(spec: ArgSpec): Option[] {
  const bits = [spec.description?.trim()].filter(Boolean) as string[];
  if (spec.choices && spec.kind === "number") bits.push(`(one of ${spec.choices.join(", ")})`);
  if (spec.kind === "array") bits.push("(repeatable, or a JSON array)");
  if (spec.kind === "object" || spec.kind === "json") bits.push("(JSON)");
  if (spec.default !== undefined) bits.push(`(desk default: ${JSON.stringify(spec.default)})`);
  if (spec.required) bits.push("(required)");
  const description = bits.join(" ");
  if (spec.kind === "boolean") return [new Option(`--${spec.flag}`, description), new Option(`--no-${spec.flag}`, `not --${spec.flag}`)];
  const placeholder = spec.kind === "array" ? "value" : spec.kind === "object" || spec.kind === "json" ? "json" : spec.kind;
  const option = new Option(`--${spec.flag} <${placeholder}>`, description);
  if (spec.kind === "array") option.argParser((raw: string, prev: string[] | undefined) => [...(prev ?? []), raw]);
  const choices = spec.choices?.filter((c): c is string => typeof c === "string");
  if (spec.kind === "string" && choices?.length && choices.length === spec.choices!.length) option.choices(choices);
  return [option];
}

/** `--input` as an object: JSON text, `@file` or `-` (stdin). */
function readInputOption(raw: string | undefined): Record<string, unknown> {
  if (raw === undefined) return {};
  let text = raw;
  if (raw === "-") text = readFileSync(0, "utf8");
  else if (raw.startsWith("@")) {
    try {
      text = readFileSync(raw.slice(1), "utf8");
    } catch {
      throw usageError(`--input: cannot read ${raw.slice(1)}.`);
    }
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw usageError("--input is not JSON.");
  }
  if (!parsed || typeof parsed !== "object" || Array.isArray(parsed)) throw usageError("--input must be a JSON object.");
  return parsed as Record<string, unknown>;
}

function leafCommand(plan: ToolCommand, ctx: Context): Command {
  const { skill } = plan;
  const name = plan.path[plan.path.length - 1];
  const kind = skill.read_only ? "read" : skill.destructive ? "write, destructive: asks before sending unless --yes" : "write";
  const command = new Command(name)
    .summary(plan.exportAll ? `${skill.title}: every page, CSV by default` : skill.title)
    .description(`${skill.title}.\n\n${skill.description}`);
  if (plan.positional) command.argument(`[${plan.positional.property}]`, `the same as --${plan.positional.flag}`);
  for (const spec of plan.specs) for (const option of optionFor(spec)) command.addOption(option);
  command.option("--input <json>", "the input as a JSON object (or @file, or - for stdin); options given override it");
  if (plan.paged && !plan.exportAll) command.option("--all", "read every page (follows next_cursor) and print them as one");
  if (!skill.read_only) command.option("--dry-run", "print the signed request and send nothing");
  if (skill.destructive) command.option("-y, --yes", "do not ask before sending");
  example(
    command,
    exampleLine(plan),
    `Skill: ${skill.name} (MCP tool ${skill.tool}) · ${kind}` +
      (plan.specs.some((s) => s.property === "client_request_id")
        ? "\nclient_request_id: made by the CLI unless given, and kept on the CLI's own retries, so the write happens once."
        : ""),
  );
  command.action(async (...args: unknown[]) => {
    const cmd = args[args.length - 1] as Command;
    const opts = cmd.opts() as Record<string, unknown>;
    const given: Record<string, string | string[] | boolean | undefined> = {};
    for (const spec of plan.specs) {
      const attr = new Option(`--${spec.flag}`).attributeName();
      given[spec.property] = opts[attr] as string | string[] | boolean | undefined;
    }
    if (plan.positional && typeof args[0] === "string") {
      const existing = given[plan.positional.property];
      if (existing !== undefined && existing !== args[0])
        throw usageError(`${plan.positional.property} given twice: "${args[0]}" and --${plan.positional.flag} "${String(existing)}".`);
      given[plan.positional.property] = args[0];
    }
    await runSkill(ctx, plan, {
      given,
      base: readInputOption(opts.input as string | undefined),
      all: plan.exportAll || !!opts.all,
      dryRun: !!opts.dryRun,
      yes: !!opts.yes,
    });
  });
  return command;
}

export function addToolCommands(program: Command, plans: ToolCommand[], ctx: Context): void {
  const groups = new Map<string, Command>();
  for (const plan of plans) {
    const leaf = leafCommand(plan, ctx).copyInheritedSettings(program);
    if (plan.path.length === 1) {
      program.addCommand(leaf);
      continue;
    }
    const groupName = plan.path[0];
    let group = groups.get(groupName);
    if (!group) {
      group = new Command(groupName)
        .copyInheritedSettings(program)
        .description(GROUP_DESCRIPTIONS[groupName] ?? `The desk's ${groupName} tools`);
      groups.set(groupName, group);
      program.addCommand(group);
    }
    group.addCommand(leaf);
  }
}
