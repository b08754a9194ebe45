"use client";

/** The filter bars' field styles: small, dense, one height (movements, orders, activities). */
export const filterInput = "h-7 rounded border border-slate-300 bg-white px-2 text-xs font-normal text-slate-900";
export const filterLabel = "flex flex-col gap-0.5 text-[11px] font-medium text-slate-600";

/**
 * A filter's select inside a filter form: "All" first, then the options; choosing one submits the form at once. A
 * value in the URL the desk does not know is kept as an option, shown by `show` (which should say it is unknown).
 */
export function FilterSelect({
  name,
  title,
  value,
  options,
  show = (o) => o,
  width = "w-28",
}: {
  name: string;
  title: string;
  value: string | undefined;
  options: readonly string[];
  show?: (option: string) => string;
  width?: string;
}) {
  const all = value && !options.includes(value) ? [...options, value] : options;
  return (
    <label className={filterLabel}>
      {title}
      <select
        name={name}
        defaultValue={value ?? ""}
        className={`${filterInput} ${width}`}
        onChange={(e) => e.currentTarget.form?.requestSubmit()}
      >
        <option value="">All</option>
        {all.map((o) => (
          <option key={o} value={o}>
            {show(o)}
          </option>
        ))}
      </select>
    </label>
  );
}
