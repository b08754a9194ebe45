import { usageError } from "../errors";

/**
 * A skill's input JSON Schema as command-line options, and the options given back as the skill's input: one
 * `--kebab-name` a property, typed (integer, number, boolean as `--x`/`--no-x`, enums as choices, arrays
 * repeatable, objects as JSON), checked here against the schema's type, choices, bounds and pattern so that a
 * mistake is a usage error (exit 2) before anything is sent.
 */

export type JsonSchema = {
  type?: string | string[];
  enum?: unknown[];
  const?: unknown;
  anyOf?: JsonSchema[];
  oneOf?: JsonSchema[];
  items?: JsonSchema;
  properties?: Record<string, JsonSchema>;
  required?: string[];
  description?: string;
  default?: unknown;
  minimum?: number;
  maximum?: number;
  minLength?: number;
  maxLength?: number;
  minItems?: number;
  pattern?: string;
  format?: string;
  additionalProperties?: unknown;
};

export type Kind = "string" | "integer" | "number" | "boolean" | "array" | "object" | "json";

export type ArgSpec = {
  property: string;
  /** The option's long name without dashes, e.g. `reason-code`. */
  flag: string;
  kind: Kind;
  /** What an array holds. */
  item?: ArgSpec;
  choices?: (string | number)[];
  required: boolean;
  description?: string;
  default?: unknown;
  schema: JsonSchema;
};

/** Option names the CLI keeps for itself: a property with one of these names is `--arg-<name>`. */
export const RESERVED_FLAGS = new Set(["profile", "output", "help", "input", "all", "yes", "dry-run", "refresh-skills", "version"]);

export const kebab = (name: string) =>
  name
    .replace(/([a-z0-9])([A-Z])/g, "$1-$2")
    .replace(/_/g, "-")
    .toLowerCase();

const firstType = (type: JsonSchema["type"]) => (Array.isArray(type) ? type.find((t) => t !== "null") : type);

/** The schema's kind and choices, seeing through `anyOf` of constants and `[T, null]` unions. */
function describeSchema(schema: JsonSchema): { kind: Kind; choices?: (string | number)[]; schema: JsonSchema } {
  const branches = schema.anyOf ?? schema.oneOf;
  if (branches) {
    const real = branches.filter((b) => firstType(b.type) !== undefined || b.const !== undefined || b.enum);
    const concrete = real.filter((b) => !(b.type === "null" && b.const === undefined && !b.enum));
    if (concrete.length === 1) return describeSchema({ ...concrete[0], description: schema.description ?? concrete[0].description });
    const choices = concrete.flatMap((b) => (b.const !== undefined ? [b.const] : (b.enum ?? [undefined])));
    if (choices.length && choices.every((c) => typeof c === "string" || typeof c === "number")) {
      const numeric = choices.every((c) => typeof c === "number");
      return { kind: numeric ? "number" : "string", choices: choices as (string | number)[], schema };
    }
    return { kind: "json", schema };
  }
  const type = firstType(schema.type);
  const choices = schema.const !== undefined ? [schema.const] : schema.enum;
  const known: Kind[] = ["string", "integer", "number", "boolean", "array", "object"];
  const kind: Kind = known.includes(type as Kind) ? (type as Kind) : "json";
  if (choices && choices.every((c) => typeof c === "string" || typeof c === "number"))
    return { kind: kind === "json" ? "string" : kind, choices: choices as (string | number)[], schema };
  return { kind, schema };
}

function specOf(property: string, schema: JsonSchema, required: boolean): ArgSpec {
  const { kind, choices, schema: s } = describeSchema(schema);
  const flag = RESERVED_FLAGS.has(kebab(property)) ? `arg-${kebab(property)}` : kebab(property);
  const spec: ArgSpec = { property, flag, kind, choices, required, description: schema.description, default: schema.default, schema: s };
  if (kind === "array" && s.items) spec.item = specOf(property, s.items, false);
  return spec;
}

/** One option a property of the input schema, in the schema's order. */
export function argSpecs(input: JsonSchema): ArgSpec[] {
  const required = new Set(input.required ?? []);
  return Object.entries(input.properties ?? {}).map(([name, schema]) => specOf(name, schema, required.has(name)));
}

/** The property a command also takes as its first argument: its first required id (`orders get 123`). */
export function positionalSpec(specs: ArgSpec[]): ArgSpec | undefined {
  return specs.find(
    (s) => s.required && s.kind === "string" && !s.choices && s.property !== "client_request_id" && /(^id$|_id$|[a-z]Id$)/.test(s.property),
  );
}

const isScalarKind = (kind: Kind) => kind === "string" || kind === "integer" || kind === "number" || kind === "boolean";

/** One command-line value as the schema's type; a usage error names the option. */
export function parseValue(spec: ArgSpec, raw: string): unknown {
  const name = `--${spec.flag}`;
  const fail = (why: string) => usageError(`${name}: ${why}`);
  let value: unknown;
  switch (spec.kind) {
    case "string":
      value = raw;
      break;
    case "integer":
      if (!/^-?\d+$/.test(raw.trim())) throw fail(`"${raw}" is not a whole number.`);
      value = Number(raw);
      break;
    case "number":
      value = Number(raw);
      if (raw.trim() === "" || !Number.isFinite(value)) throw fail(`"${raw}" is not a number.`);
      break;
    case "boolean":
      if (!/^(true|false)$/i.test(raw)) throw fail(`"${raw}" is not true or false.`);
      value = raw.toLowerCase() === "true";
      break;
    default:
      try {
        value = JSON.parse(raw);
      } catch {
        if (spec.kind === "json") value = raw;
        else throw fail(`expects JSON, e.g. ${spec.kind === "array" ? '["a","b"]' : '{"key":"value"}'}.`);
      }
  }
  const problem = checkValue(spec, value);
  if (problem) throw fail(problem);
  return value;
}

/** An array option's occurrences: each a JSON array (spread), a JSON object (one element) or one scalar element. */
export function parseArray(spec: ArgSpec, raws: string[]): unknown[] {
  const item = spec.item ?? specOf(spec.property, {}, false);
  const values: unknown[] = [];
  for (const raw of raws) {
    const trimmed = raw.trim();
    if (trimmed.startsWith("[")) {
      const parsed = parseValue({ ...spec, kind: "array" }, raw) as unknown[];
      if (!Array.isArray(parsed)) throw usageError(`--${spec.flag}: expects a JSON array.`);
      values.push(...parsed);
    } else if (isScalarKind(item.kind)) values.push(parseValue({ ...item, flag: spec.flag }, raw));
    else values.push(parseValue({ ...item, flag: spec.flag, kind: item.kind === "json" ? "json" : "object" }, raw));
  }
  return values;
}

/** Why a value does not fit the property's schema, or undefined. */
export function checkValue(spec: ArgSpec, value: unknown): string | undefined {
  const s = spec.schema;
  if (spec.choices && !spec.choices.includes(value as string | number))
    return `"${String(value)}" is not one of ${spec.choices.map((c) => JSON.stringify(c)).join(", ")}.`;
  if (typeof value === "number") {
    if (spec.kind === "integer" && !Number.isInteger(value)) return `${value} is not a whole number.`;
    if (s.minimum !== undefined && value < s.minimum) return `${value} is below ${s.minimum}.`;
    if (s.maximum !== undefined && value > s.maximum) return `${value} is above ${s.maximum}.`;
  }
  if (typeof value === "string" && spec.kind === "string") {
    if (s.minLength !== undefined && value.length < s.minLength) return `at least ${s.minLength} characters.`;
    if (s.maxLength !== undefined && value.length > s.maxLength) return `at most ${s.maxLength} characters.`;
    if (s.pattern && !new RegExp(s.pattern, "u").test(value)) return `"${value}" is not in the expected form${hintOf(s)}.`;
  }
  if (spec.kind === "array" && Array.isArray(value) && s.minItems !== undefined && value.length < s.minItems)
    return `at least ${s.minItems} item(s).`;
  return undefined;
}

const hintOf = (s: JsonSchema) =>
  s.format === "date" ? " (YYYY-MM-DD)" : s.format === "uuid" ? " (a UUID)" : s.format ? ` (${s.format})` : "";

/**
 * The skill's input: the `--input` object, then each option given (raw strings, arrays of them for array
 * properties, booleans for flags) parsed over it; a required property missing is a usage error.
 */
export function buildInput(
  specs: ArgSpec[],
  given: Record<string, string | string[] | boolean | undefined>,
  base: Record<string, unknown> = {},
  exempt: string[] = [],
): Record<string, unknown> {
  const input: Record<string, unknown> = { ...base };
  for (const spec of specs) {
    const raw = given[spec.property];
    if (raw === undefined) continue;
    if (typeof raw === "boolean") input[spec.property] = raw;
    else if (spec.kind === "array") input[spec.property] = parseArray(spec, Array.isArray(raw) ? raw : [raw]);
    else input[spec.property] = parseValue(spec, Array.isArray(raw) ? raw[raw.length - 1] : raw);
  }
  const missing = specs.filter((s) => s.required && input[s.property] === undefined && !exempt.includes(s.property));
  if (missing.length)
    throw usageError(
      `Missing ${missing.map((s) => `--${s.flag}`).join(", ")}.`,
      missing.length === 1 && missing[0].description ? `--${missing[0].flag}: ${missing[0].description}` : undefined,
    );
  return input;
}

/** A plausible value for the property in an example line: a choice, an "e.g." from its description, else <name>. */
export function exampleValue(spec: ArgSpec): string {
  if (spec.choices?.length) return String(spec.choices.find((c) => c !== "") ?? spec.choices[0]);
  const eg = spec.description?.match(/e\.g\.\s*([^\s,;)]+)/);
  if (eg && spec.kind !== "array" && spec.kind !== "object") return eg[1];
  if (spec.schema.format === "date") return "2026-01-02";
  if (spec.kind === "integer" || spec.kind === "number") return String(spec.schema.minimum ?? 1);
  if (spec.kind === "array" || spec.kind === "object") {
    const json = spec.description?.match(/e\.g\.\s*(\[.*\]|\{.*\})/)?.[1];
    return `'${json ?? (spec.kind === "array" ? "[...]" : "{...}")}'`;
  }
  return `<${spec.property}>`;
}
