import { z } from "zod";

/**
 * Upstream enums, parsed tolerantly and shown honestly (STYLE practice 4): a value the app does not know is kept
 * raw by the parser and shown as "unknown (RAW)", never a crash. Shared by the Broker schemas and the UI.
 */

/** A known enum value, or any other string the upstream sent, kept raw. */
export type Tolerant<T extends string> = T | (string & { readonly __unknownEnumValue?: never });

/** Parses an enum without ever failing on a new value: the raw string is kept as-is. */
export function tolerantEnum<const T extends readonly [string, ...string[]]>(_values: T) {
  // the values only type the output; any string is accepted and kept
  return z.string().transform((v) => v as Tolerant<T[number]>);
}

export function isKnownEnum<const T extends readonly string[]>(values: T, v: string): v is T[number] {
  return (values as readonly string[]).includes(v);
}

/** The known values as a list, or as a map of value → label. */
export type EnumKnown = readonly string[] | Readonly<Record<string, string>>;

/**
 * The one "unknown (RAW)" rule: "—" when absent, the label (or the value itself) when known, "unknown (RAW)"
 * otherwise.
 */
export function enumLabel(known: EnumKnown, v: string | undefined | null): string {
  if (v === undefined || v === null || v === "") return "—";
  if (isEnumList(known)) return known.includes(v) ? v : unknownLabel(v);
  return Object.hasOwn(known, v) ? known[v] : unknownLabel(v);
}

export const unknownLabel = (raw: string) => `unknown (${raw})`;

function isEnumList(known: EnumKnown): known is readonly string[] {
  return Array.isArray(known);
}
