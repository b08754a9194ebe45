import type { Skill } from "./listing";
import { placeSkill } from "./naming";
import { type ArgSpec, argSpecs, exampleValue, positionalSpec } from "./schema-args";

/**
 * The command tree made from the desk's listing: where each skill's command goes (`orders cancel`), its options'
 * specs, its example; a paged listing's `list` also gets `export` (every page, CSV by default).
 */

export type ToolCommand = { skill: Skill; path: string[]; specs: ArgSpec[]; positional?: ArgSpec; paged: boolean; exportAll: boolean };

const isPaged = (skill: Skill) => !!skill.input_schema.properties?.cursor && !!skill.output_schema.properties?.next_cursor;

/** Where every skill goes, first come first served: a clash keeps the skill's own name. */
export function planToolCommands(skills: Skill[], taken: Set<string>): ToolCommand[] {
  const plans: ToolCommand[] = [];
  const used = new Set<string>();
  const claim = (path: string[]) => {
    const key = path.join(" ");
    if (used.has(key) || (path.length === 1 && taken.has(path[0]))) return false;
    used.add(key);
    return true;
  };
  for (const skill of skills) {
    const place = placeSkill(skill.name);
    let path = place.group ? [place.group, place.command] : [place.command];
    if (!claim(path)) path = place.group && claim([place.group, skill.name]) ? [place.group, skill.name] : [`skill-${skill.name}`];
    const specs = argSpecs(skill.input_schema);
    const base = { skill, specs, positional: positionalSpec(specs), paged: skill.read_only && isPaged(skill) };
    plans.push({ ...base, path, exportAll: false });
    if (base.paged && place.group && path[1] === "list" && claim([place.group, "export"]))
      plans.push({ ...base, path: [place.group, "export"], exportAll: true });
  }
  return plans;
}

/** A command line that runs the command: the positional id, then every required option with a plausible value. */
export function exampleLine(plan: ToolCommand): string {
  const parts = ["brokerdesk", ...plan.path];
  if (plan.positional) parts.push(exampleValue(plan.positional));
  const needed = plan.specs.filter((s) => s.required && s !== plan.positional && s.property !== "client_request_id");
  // With nothing required, one option that has a telling value (a choice, an "e.g."), to show how filters go.
  const shown =
    needed.length || plan.positional ? needed : plan.specs.filter((s) => s.choices || /e\.g\./.test(s.description ?? "")).slice(0, 1);
  for (const spec of shown) parts.push(`--${spec.flag}`, exampleValue(spec));
  if (plan.exportAll) parts.push("> export.csv");
  return parts.join(" ");
}
