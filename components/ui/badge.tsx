import type { ReactNode } from "react";

export type Tone = "green" | "red" | "amber" | "blue" | "slate" | "violet";

const TONES: Record<Tone, string> = {
  green: "bg-emerald-50 text-emerald-800 ring-emerald-600/30",
  red: "bg-red-50 text-red-800 ring-red-600/30",
  amber: "bg-amber-50 text-amber-900 ring-amber-600/30",
  blue: "bg-blue-50 text-blue-800 ring-blue-600/30",
  slate: "bg-slate-100 text-slate-700 ring-slate-500/30",
  violet: "bg-violet-50 text-violet-800 ring-violet-600/30",
};

export function Badge({ tone = "slate", children }: { tone?: Tone; children: ReactNode }) {
  return (
    <span
      className={`inline-flex items-center rounded px-1.5 py-0.5 text-xs font-medium whitespace-nowrap ring-1 ring-inset ${TONES[tone]}`}
    >
      {children}
    </span>
  );
}
