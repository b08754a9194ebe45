"use client";
import { useEffect, useState, useSyncExternalStore, type ReactNode } from "react";
import { DateInput } from "@/components/ui/date-input";
import type { PageState } from "@/lib/list-params";
import type { ListStateApi } from "./use-data-table";

/** The filter bars' field styles: small, dense, one height. */
const filterInput = "h-7 rounded border border-slate-300 bg-white px-2 text-xs font-normal text-slate-900";
const filterLabel = "flex flex-col gap-0.5 text-[11px] font-medium text-slate-600";

type Option = string | { value: string; label: string };

/**
 * One filter of a listing as the bar shows it: its key in the list's `listParams({ filters })`, and how to ask for
 * it. `text` and `account` (an account id or number, in a fixed-width font) apply on Enter or Filter; `select`
 * applies at once; `date` (typed or picked as yyyy-mm-dd, `DateInput`) with the next Enter or Filter.
 */
export interface FilterField<St> {
  name: keyof St & string;
  label: string;
  kind: "text" | "select" | "date" | "account";
  /** The choices of a select ("All" comes first); a value in the URL the desk does not know is kept, said unknown. */
  options?: readonly Option[];
  /** The label of a select's empty choice; false: no empty choice (the filter has a default). */
  all?: string | false;
  /** The control's accessible name when it should say more than the label. */
  aria?: string;
  /** A text field that applies as one types (after a pause) rather than on Enter. */
  asYouType?: boolean;
  placeholder?: string;
  /** A longer explanation, shown on hover. */
  hint?: string;
  /** Tailwind width class of the control. */
  width?: string;
  /** Suggestions of a text field (a datalist): any value is still taken. */
  suggestions?: readonly string[];
  /** An amount: decimal keyboard, right-aligned. */
  numeric?: boolean;
  /** Shown in capitals (symbols, codes). */
  upper?: boolean;
  /** What to say when the list's params do not take what was typed (default: a generic sentence). */
  invalid?: string;
  /** Stays on the line of the field before it, as the end of a range ("From … to", "at least … at most"). */
  joined?: boolean;
}

/** A rule across the bar's fields (a date range the right way round): the field to mark and what to say, or nothing. */
export type FilterRule = (values: Record<string, string>) => { field: string; message: string } | undefined;

/**
 * A "From … to" range of days (the fields `from` and `to`, yyyy-mm-dd) the right way round: a reversed one is said on
 * its end rather than applied (it would match nothing). Every listing with such a range gives it to its bar.
 */
export const dateRangeRule: FilterRule = ({ from, to }) =>
  from && to && from > to ? { field: "to", message: "The end date is before the start date" } : undefined;

/** Quick views: one filter whose values are offered as buttons above the bar ("All …" first). */
export interface QuickViews<St> {
  name: keyof St & string;
  all: string;
  options: readonly { value: string; label: string }[];
}

const noSubscription = () => () => undefined;
const optionValue = (o: Option) => (typeof o === "string" ? o : o.value);
const optionLabel = (o: Option) => (typeof o === "string" ? o : o.label);

/**
 * The one filter bar of every listing, driven by the list's declared filters: the fields are read from and written
 * to the URL through the list's params (a filter change goes back to the first page), so Back and a reload show
 * what the rows are filtered by. Enter in a text field applies the bar; Clear removes every filter.
 */
export function FilterBar<St extends PageState>({
  list,
  fields,
  views,
  actions,
  exportPath,
  rules = [],
  label = "Filters",
}: {
  list: ListStateApi<St>;
  fields: readonly FilterField<St>[];
  views?: QuickViews<St>;
  /** The bar's right end: the columns menu. */
  actions?: ReactNode;
  /** The list's CSV export route, when it offers one: the bar's last action, with the list's filter. */
  exportPath?: string;
  /** Rules across fields, checked before the bar applies. */
  rules?: readonly FilterRule[];
  label?: string;
}) {
  const { params, state, setFilters } = list;
  const values = state as unknown as Record<string, unknown>;
  const current = (name: string) => (values[name] === undefined || values[name] === null ? "" : String(values[name]));
  const fromUrl = () => Object.fromEntries(fields.map((f) => [f.name, current(f.name)]));
  // The fields' text: the URL's filters, taken again when they change under the bar (Back, Clear, a quick view).
  const [draft, setDraft] = useState<Record<string, string>>(fromUrl);
  const urlFilters = params.filterQuery(state);
  const [seen, setSeen] = useState(urlFilters);
  // What the bar refused to apply, by field: shown under the field until the next apply.
  const [problems, setProblems] = useState<Record<string, string>>({});
  if (seen !== urlFilters) {
    setSeen(urlFilters);
    setDraft(fromUrl());
    setProblems({});
  }
  const hasText = fields.some((f) => f.kind !== "select" && !f.asYouType);
  // Set once the bar is interactive (hydrated): what is typed before that is not the bar's yet.
  const ready = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  /** A text or date field's name and the problem it is marked with. */
  const describe = (f: FilterField<St>) => ({
    "aria-label": f.aria ?? f.label,
    "aria-invalid": problems[f.name] ? true : undefined,
    "aria-describedby": problems[f.name] ? `filter-${f.name}-problem` : undefined,
  });
  const problemRing = (f: FilterField<St>) => (problems[f.name] ? "border-red-600 ring-1 ring-red-600" : "");
  const apply = (next: Record<string, string>) => {
    // Parsed with the list's own schema (its `.catch()`es and transforms), then only the bar's fields are taken.
    const query = new URLSearchParams();
    for (const f of fields) {
      const v = (next[f.name] ?? "").trim();
      if (v) query.set(f.name, v);
    }
    const parsed = params.parse(query) as unknown as Record<string, unknown>;
    // A value typed that the list's params drop is said, not dropped silently; nothing is applied then.
    const found: Record<string, string> = {};
    for (const f of fields) {
      if (query.has(f.name) && (parsed[f.name] === undefined || parsed[f.name] === null))
        found[f.name] = f.invalid ?? `${f.label}: not a value this list can filter by`;
    }
    for (const rule of rules) {
      const broken = rule(Object.fromEntries(query));
      if (broken && !found[broken.field]) found[broken.field] = broken.message;
    }
    setProblems(found);
    if (Object.keys(found).length) return;
    const patch = Object.fromEntries(fields.map((f) => [f.name, parsed[f.name]]));
    if (fields.some((f) => String(patch[f.name] ?? "") !== current(f.name))) setFilters(patch as Partial<St>);
  };
  // As-you-type fields apply after a pause.
  const typed = fields.filter((f) => f.asYouType).map((f) => draft[f.name] ?? "");
  const typedKey = JSON.stringify(typed);
  useEffect(() => {
    const changed = fields.some((f) => f.asYouType && (draft[f.name] ?? "").trim() !== current(f.name));
    if (!changed) return;
    const t = setTimeout(() => apply(draft), 350);
    return () => clearTimeout(t);
    // eslint-disable-next-line react-hooks/exhaustive-deps -- the pause restarts on what was typed, and ends when the URL's filters change
  }, [typedKey, urlFilters]);
  const viewButtons = views ? (
    <div className="flex flex-wrap items-center gap-1" role="group" aria-label="Quick views">
      {[{ value: undefined, label: views.all }, ...views.options].map((v) => {
        const pressed = (values[views.name] ?? undefined) === v.value;
        return (
          <button
            key={v.value ?? "all"}
            type="button"
            aria-pressed={pressed}
            onClick={() => setFilters({ [views.name]: v.value } as Partial<St>)}
            className={`h-7 rounded-full border px-3 text-xs font-medium ${pressed ? "border-blue-700 bg-blue-700 text-white" : "border-slate-300 bg-white text-slate-700 hover:bg-slate-100"}`}
          >
            {v.label}
          </button>
        );
      })}
    </div>
  ) : null;

  const field = (f: FilterField<St>) => (
    <label key={f.name} className={`relative ${filterLabel}`} title={f.hint}>
      {f.label}
      {f.kind === "select" ? (
        <FilterSelect
          field={f}
          value={draft[f.name] ?? ""}
          onChange={(value) => {
            const next = { ...draft, [f.name]: value };
            setDraft(next);
            apply(next);
          }}
        />
      ) : f.kind === "date" ? (
        <DateInput
          name={f.name}
          {...describe(f)}
          value={draft[f.name] ?? ""}
          onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
          placeholder={f.placeholder}
          className={[filterInput, f.width ?? "w-24", problemRing(f)].join(" ")}
        />
      ) : (
        <input
          name={f.name}
          type={f.asYouType ? "search" : "text"}
          {...describe(f)}
          value={draft[f.name] ?? ""}
          onChange={(e) => setDraft({ ...draft, [f.name]: e.target.value })}
          placeholder={f.placeholder}
          list={f.suggestions ? `filter-${f.name}` : undefined}
          inputMode={f.numeric ? "decimal" : undefined}
          className={[
            filterInput,
            f.width ?? "w-40",
            f.kind === "account" ? "font-mono" : "",
            f.numeric ? "text-right" : "",
            f.upper ? "uppercase placeholder:normal-case" : "",
            problemRing(f),
          ].join(" ")}
        />
      )}
      {problems[f.name] ? (
        // Under its field, out of the flow: the fields beside it and the buttons stay on their line.
        <span
          id={`filter-${f.name}-problem`}
          role="alert"
          className="absolute top-full left-0 z-10 mt-0.5 text-[11px] font-normal whitespace-nowrap text-red-700"
        >
          {problems[f.name]}
        </span>
      ) : null}
      {f.suggestions ? (
        <datalist id={`filter-${f.name}`}>
          {f.suggestions.map((o) => (
            <option key={o} value={o} />
          ))}
        </datalist>
      ) : null}
    </label>
  );
  return (
    <div className="flex flex-col gap-2">
      {viewButtons}
      <div className="flex items-end gap-2">
        <form
          role="search"
          aria-label={label}
          // The fields show the URL's filters: no browser restoring what was typed before a reload or Back.
          autoComplete="off"
          data-ready={ready || undefined}
          // Room under the lines for a field's problem (one line of small text) while one is shown.
          className={`flex min-w-0 flex-1 flex-wrap items-end gap-x-2 ${Object.values(problems).some(Boolean) ? "gap-y-5 pb-4" : "gap-y-2"}`}
          onSubmit={(e) => {
            e.preventDefault();
            // What the fields hold when sent (text typed before the page was interactive included).
            const data = new FormData(e.currentTarget);
            apply(Object.fromEntries(fields.map((f) => [f.name, String(data.get(f.name) ?? draft[f.name] ?? "")])));
          }}
        >
          {runs(fields).map((run) =>
            run.length === 1 ? (
              field(run[0])
            ) : (
              // A range's ends wrap to the next line together.
              <div key={run[0].name} className="flex items-end gap-2">
                {run.map(field)}
              </div>
            ),
          )}
          {hasText ? (
            <button type="submit" className="h-7 rounded bg-blue-700 px-3 text-xs font-medium text-white hover:bg-blue-800">
              Filter
            </button>
          ) : null}
          {params.isFiltered(state) ? (
            <button
              type="button"
              className="h-7 px-2 text-xs text-slate-600 hover:underline"
              onClick={() => setFilters(params.clearedFilters())}
            >
              Clear
            </button>
          ) : null}
        </form>
        {actions || exportPath ? (
          <div className="ml-auto flex shrink-0 items-end gap-2">
            {actions}
            {exportPath ? <ExportCsv href={`${exportPath}${urlFilters}`} /> : null}
          </div>
        ) : null}
      </div>
    </div>
  );
}

function FilterSelect<St>({ field, value, onChange }: { field: FilterField<St>; value: string; onChange: (value: string) => void }) {
  const options = field.options ?? [];
  const known = !value || options.some((o) => optionValue(o) === value);
  return (
    <select
      name={field.name}
      value={value}
      aria-label={field.aria ?? field.label}
      className={`${filterInput} ${field.width ?? "w-28"}`}
      onChange={(e) => onChange(e.target.value)}
    >
      {field.all === false ? null : <option value="">{field.all ?? "All"}</option>}
      {options.map((o) => (
        <option key={optionValue(o)} value={optionValue(o)}>
          {optionLabel(o)}
        </option>
      ))}
      {known ? null : <option value={value}>unknown ({value})</option>}
    </select>
  );
}

/** A CSV export link of the bar's actions: every row of the filter, not the page. */
function ExportCsv({ href }: { href: string }) {
  return (
    <a
      href={href}
      download
      className="flex h-7 items-center rounded border border-slate-300 bg-white px-3 text-xs font-medium text-slate-800 hover:bg-slate-100"
    >
      Export CSV
    </a>
  );
}

/** A select's choices from the values and how each is called. */
export function choices<V extends string>(values: readonly V[], label: (value: V) => string): { value: V; label: string }[] {
  return values.map((value) => ({ value, label: label(value) }));
}

/** The fields in runs: a field with the `joined` fields after it. */
function runs<F extends { joined?: boolean }>(fields: readonly F[]): F[][] {
  const out: F[][] = [];
  for (const f of fields) {
    if (f.joined && out.length) out[out.length - 1].push(f);
    else out.push([f]);
  }
  return out;
}
