import { enumLabel } from "@/lib/enums";
import { Badge, type Tone } from "./badge";

/**
 * An upstream enum value as a badge, coloured by value. A value without a tone is one the app does not know: it is
 * shown raw as "unknown (RAW)" in violet (STYLE practice 4), never hidden and never a crash.
 */
export function EnumBadge<V extends string>({
  value,
  tones,
  labels,
}: {
  value: string | undefined | null;
  tones: Readonly<Record<V, Tone>>;
  /** Labels of the known values; the value itself is shown otherwise. */
  labels?: Readonly<Record<V, string>>;
}) {
  if (!value) return <span className="text-slate-400">—</span>;
  const known = Object.hasOwn(tones, value);
  const text = known ? enumLabel(labels ?? Object.keys(tones), value) : enumLabel([], value);
  return <Badge tone={known ? tones[value as V] : "violet"}>{text}</Badge>;
}
