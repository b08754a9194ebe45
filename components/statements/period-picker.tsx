"use client";
import { DateInput } from "@/components/ui/date-input";
import { control } from "@/components/ui/field";
import { statementPeriodSchema, utcToday, type StatementPeriod } from "@/lib/schemas/statements";

/** The first and last day of the UTC month `back` months before today's. */
export function monthPeriod(back: number, now = new Date()): StatementPeriod & { label: string } {
  const first = new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth() - back, 1));
  const last = new Date(Date.UTC(first.getUTCFullYear(), first.getUTCMonth() + 1, 0));
  const to = back === 0 ? utcToday(now) : last.toISOString().slice(0, 10);
  const label = first.toLocaleString("en-GB", { month: "short", year: "numeric", timeZone: "UTC" });
  return { from: first.toISOString().slice(0, 10), to, label: back === 0 ? `${label} to date` : label };
}

/** What is wrong with a period, in words (the server parses it with the same schema), or undefined. */
export function periodProblem(p: StatementPeriod): string | undefined {
  const parsed = statementPeriodSchema.safeParse(p);
  if (parsed.success) return undefined;
  const issue = parsed.error.issues[0];
  return `${issue.path[0] === "to" ? "To" : "From"} ${issue.message}.`;
}

/** The period's two days, each with its label (what `periodProblem` starts with when the day is the wrong one). */
const ENDS = [
  ["from", "From"],
  ["to", "To"],
] as const;

/**
 * A statement period: two days (the desk's DateInput, yyyy-mm-dd, UTC) and shortcuts for this month and the three
 * before it. Controlled: the parent keeps the period.
 */
export function PeriodPicker({
  value,
  onChange,
  idPrefix,
}: {
  value: StatementPeriod;
  onChange: (p: StatementPeriod) => void;
  idPrefix: string;
}) {
  const problem = periodProblem(value);
  return (
    <div className="flex flex-col gap-2">
      <div className="flex flex-wrap items-end gap-2">
        {ENDS.map(([end, label]) => (
          <label key={end} className="flex flex-col gap-0.5 text-xs text-slate-600" htmlFor={`${idPrefix}-${end}`}>
            {label}
            <DateInput
              id={`${idPrefix}-${end}`}
              className={`${control} w-32`}
              value={value[end]}
              aria-invalid={problem?.startsWith(label) || undefined}
              onChange={(e) => onChange({ ...value, [end]: e.target.value })}
            />
          </label>
        ))}
        <div className="flex flex-wrap gap-1" role="group" aria-label="Months">
          {[0, 1, 2, 3].map((back) => {
            const m = monthPeriod(back);
            const chosen = m.from === value.from && m.to === value.to;
            return (
              <button
                key={back}
                type="button"
                aria-pressed={chosen}
                onClick={() => onChange({ from: m.from, to: m.to })}
                className={`h-8 rounded border px-2 text-xs ${chosen ? "border-blue-700 bg-blue-50 text-blue-800" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
              >
                {m.label}
              </button>
            );
          })}
        </div>
      </div>
      {problem ? (
        <p className="text-xs text-red-700" role="alert">
          {problem}
        </p>
      ) : (
        <p className="text-xs text-slate-500">UTC days, both included.</p>
      )}
    </div>
  );
}
