import { RowsTable } from "@/components/ui/rows-table";
import { SymbolLink } from "./symbol-link";
import { formatMoney, formatQuantity, mulDecimal } from "@/lib/money";
import type { FactSection, FactValue } from "@/lib/schemas/instrument-tabs";

type Row = FactSection["rows"][number];

/** One section of a tab: a record as label/value pairs, or records as a dense table; numbers right-aligned with their currency. */
export function FactSectionView({ s, testId, market }: { s: FactSection; testId: string; market: string }) {
  const cell = (row: Row, c: FactSection["columns"][number]) => {
    const v = row[c.key];
    // Another instrument named in a record (a fund's holding, a peer) links to its page.
    return c.key === "symbol" && typeof v === "string" ? (
      <SymbolLink market={market} symbol={v} />
    ) : (
      show(v, c.numeric, c.percent ? "percent" : c.money && row.__money !== false ? s.currency || "" : undefined)
    );
  };
  return (
    <section aria-label={s.title || undefined} data-testid={testId} className="flex flex-col gap-1">
      {s.title ? <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">{s.title}</h3> : null}
      {s.rows.length === 0 ? (
        <p className="py-3 text-sm text-slate-500" data-testid={`${testId}-empty`}>
          {s.empty}
        </p>
      ) : s.layout === "record" ? (
        <dl className="grid grid-cols-[max-content_1fr] gap-x-6 gap-y-1 text-sm xl:grid-cols-[max-content_1fr_max-content_1fr]">
          {s.columns.map((c) => (
            <div key={c.key} className="contents" data-field={c.key}>
              <dt className="text-slate-500">{c.label}</dt>
              <dd className={c.numeric ? "text-right tabular-nums xl:text-left" : "min-w-0 break-words"}>{cell(s.rows[0], c)}</dd>
            </div>
          ))}
        </dl>
      ) : (
        <RowsTable<Row>
          rows={s.rows}
          rowKey={(_, i) => String(i)}
          columns={s.columns.map((c) => ({ head: c.label, numeric: c.numeric, cell: (r) => cell(r, c) }))}
        />
      )}
    </section>
  );
}

/** A value: money with its currency, a fraction as a percentage, a number grouped, a flag as Yes / No. */
function show(v: FactValue | undefined, numeric: boolean, unit: string | undefined) {
  if (v === null || v === undefined || v === "") return <span className="text-slate-300">—</span>;
  if (typeof v === "boolean") return v ? "Yes" : "No";
  if (!numeric)
    return /^https:\/\/[^\s]+$/.test(v) ? (
      <a href={v} target="_blank" rel="noopener noreferrer" className="text-blue-800 hover:underline">
        {v}
      </a>
    ) : (
      v
    );
  if (unit === "percent") return `${formatMoney(mulDecimal(v, "100"), undefined, 2)} %`;
  if (unit !== undefined) return formatMoney(v, unit || undefined);
  return formatQuantity(v);
}
