import { z } from "zod";
import { isDeskDate } from "@/lib/format";

/**
 * A listing's URL state, declared once (model: sadmann7/tablecn src/lib/parsers.ts). A resource declares its
 * filters; the builder adds the generic keys every table has:
 *
 * - `size`   rows per page, one of `sizes`;
 * - `cursor` the opaque cursor of the current page (absent on the first page);
 * - `prev`   the cursors of the pages before this one, comma-separated, `-` standing for the first page, so
 *            "Previous" works with keyset paging;
 * - `sort`   `column.asc|desc`, only over the columns the server data function truly orders by;
 * - `hide`   hidden columns, comma-separated.
 *
 * No React here: the page, the GET route handlers, the CSV export and the client hook all parse with the same
 * object. Bad values fall back to defaults rather than erroring, so a hand-edited URL still opens the page.
 */

export interface Sort<S extends string = string> {
  id: S;
  desc: boolean;
}

/** The generic part of every listing's state. */
export interface PageState<S extends string = string> {
  size: number;
  cursor?: string;
  /** Cursors of the earlier pages, oldest first; FIRST_PAGE stands for the first page. */
  prev: string[];
  /** Absent: the server's natural order (or `defaultSort` when one is declared). */
  sort?: Sort<S>;
  hide: string[];
}

/** The parsed keys of a shape (zod reads an empty shape as `Record<string, never>`, which would swallow the rest). */
type Out<Shape extends z.ZodRawShape> = [keyof Shape] extends [never] ? unknown : z.output<z.ZodObject<Shape>>;

export type ListState<F extends z.ZodRawShape, S extends string> = Out<F> & PageState<S>;

export interface ListParamsOptions<F extends z.ZodRawShape, S extends string> {
  /** Keys that narrow the result: changing one goes back to the first page; the CSV export receives them. */
  filters: F;
  /** Columns the server data function sorts by across all pages. Empty: the table offers no sort. */
  sortable?: readonly S[];
  defaultSort?: Sort<NoInfer<S>>;
  sizes?: readonly number[];
  defaultSize?: number;
}

export const FIRST_PAGE = "-";
const GENERIC_KEYS = ["size", "cursor", "prev", "sort", "hide"] as const;
const COLUMN_ID = /^[A-Za-z0-9_]{1,64}$/;

type SearchInput = URLSearchParams | Record<string, string | string[] | undefined>;

export function listParams<F extends z.ZodRawShape, S extends string = never>(options: ListParamsOptions<F, S>) {
  type State = ListState<F, S>;
  const sizes = options.sizes ?? [10, 25, 50, 100];
  const defaultSize = options.defaultSize ?? sizes[0];
  const sortable: readonly S[] = options.sortable ?? [];
  const defaultSort = options.defaultSort;
  const filterKeys = Object.keys(options.filters) as (keyof Out<F> & string)[];

  const schema = z.object({
    ...options.filters,
    size: z.coerce
      .number()
      .refine((n) => sizes.includes(n))
      .catch(defaultSize),
    cursor: z.string().min(1).max(512).optional().catch(undefined),
    prev: z.string().max(4096).optional().catch(undefined).transform(splitList),
    sort: z
      .string()
      .max(80)
      .optional()
      .catch(undefined)
      .transform((s) => parseSort(s, sortable) ?? defaultSort),
    hide: z
      .string()
      .max(512)
      .optional()
      .catch(undefined)
      .transform((s) => splitList(s).filter((id) => COLUMN_ID.test(id))),
  });
  // What an empty URL means: a key equal to its default is left out of URLs.
  const defaults = schema.parse({}) as unknown as Record<string, unknown>;

  function parse(input: SearchInput): State {
    const record =
      input instanceof URLSearchParams
        ? Object.fromEntries(input)
        : Object.fromEntries(Object.entries(input).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v]));
    return schema.parse(record) as unknown as State;
  }

  /** The URL query (`?a=1&b=2`, or "") of a state; values equal to their default are left out. */
  function toQuery(state: Partial<State>, keys?: readonly string[]): string {
    const s = state as Record<string, unknown>;
    const q = new URLSearchParams();
    for (const key of keys ?? [...filterKeys, ...GENERIC_KEYS]) {
      const value = serialise(key, s[key]);
      if (value === undefined || value === serialise(key, defaults[key])) continue;
      q.set(key, value);
    }
    const text = q.toString();
    return text ? `?${text}` : "";
  }

  return {
    schema,
    sizes,
    defaultSize,
    sortable,
    defaultSort,
    filterKeys,
    parse,
    toQuery: (state: Partial<State>) => toQuery(state),
    /** What the server's answer depends on (query keys, GET route URLs): everything but `hide` and `prev`. */
    apiQuery: (state: Partial<State>) => toQuery(state, [...filterKeys, "size", "cursor", "sort"]),
    /** The filters alone (the CSV export of "everything matching"). */
    filterQuery: (state: Partial<State>) => toQuery(state, filterKeys),
    filters: (state: State) => Object.fromEntries(filterKeys.map((k) => [k, (state as Record<string, unknown>)[k]])) as Out<F>,
    /** True when a filter differs from its default (the empty state says "no match" rather than "nothing yet"). */
    isFiltered: (state: State) => filterKeys.some((k) => serialise(k, (state as Record<string, unknown>)[k]) !== serialise(k, defaults[k])),
    /** The patch that clears every filter. */
    clearedFilters: () => Object.fromEntries(filterKeys.map((k) => [k, defaults[k]])) as Partial<State>,
  };
}

export type ListParams<St extends PageState = PageState> = {
  sizes: readonly number[];
  sortable: readonly string[];
  parse: (input: SearchInput) => St;
  toQuery: (state: Partial<St>) => string;
  apiQuery: (state: Partial<St>) => string;
  filterQuery: (state: Partial<St>) => string;
  isFiltered: (state: St) => boolean;
  clearedFilters: () => Partial<St>;
};

/** The state type a builder produces. */
export type StateOf<P extends { parse: (input: SearchInput) => unknown }> = ReturnType<P["parse"]>;

function splitList(value: string | undefined): string[] {
  return value ? value.split(",").filter(Boolean) : [];
}

/** `column.asc|desc` over the declared sortable columns only; anything else is no sort. */
export function parseSort<S extends string>(value: string | undefined, sortable: readonly S[]): Sort<S> | undefined {
  const match = value ? /^(\w+)\.(asc|desc)$/.exec(value) : null;
  if (!match || !sortable.includes(match[1] as S)) return undefined;
  return { id: match[1] as S, desc: match[2] === "desc" };
}

function serialise(key: string, value: unknown): string | undefined {
  if (value === undefined || value === null || value === "") return undefined;
  if (key === "sort") {
    const s = value as Sort;
    return `${s.id}.${s.desc ? "desc" : "asc"}`;
  }
  if (Array.isArray(value)) return value.length ? value.join(",") : undefined;
  return String(value);
}

// The cursor trail. Pure: the hook and the tests use them alike.

/** The patch that moves to the next page, remembering where this one started. */
export function nextPage(state: PageState, nextCursor: string): Pick<PageState, "cursor" | "prev"> {
  return { cursor: nextCursor, prev: [...state.prev, state.cursor ?? FIRST_PAGE] };
}

/** The patch that goes back one page. */
export function previousPage(state: PageState): Pick<PageState, "cursor" | "prev"> {
  const prev = state.prev.slice(0, -1);
  const cursor = state.prev.at(-1);
  return { cursor: cursor && cursor !== FIRST_PAGE ? cursor : undefined, prev };
}

/** Back to the first page (after a filter, sort or page size change, where the cursors no longer apply). */
export function firstPage(): Pick<PageState, "cursor" | "prev"> {
  return { cursor: undefined, prev: [] };
}

export function pageNumber(state: PageState): number {
  return state.prev.length + 1;
}

/**
 * Filter values as every listing parses them from the URL: a value that does not parse is no filter (`.catch`), so a
 * hand-edited URL still opens the page.
 */
export const filterValue = {
  /** An upper-case word (an enum value, known or not yet known to the desk). */
  word: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9_]{1,40}$/)
    .optional()
    .catch(undefined),
  /** A ticker or an OCC option symbol, upper case. */
  symbol: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z0-9. _-]{1,40}$/)
    .optional()
    .catch(undefined),
  /** A calendar day, YYYY-MM-DD, that exists. */
  day: z.string().refine(isDeskDate).optional().catch(undefined),
  /** An account: its id or its account number. */
  account: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9_-]{1,64}$/)
    .optional()
    .catch(undefined),
  /** A currency code. */
  currency: z
    .string()
    .trim()
    .toUpperCase()
    .regex(/^[A-Z]{3}$/)
    .optional()
    .catch(undefined),
  /** Free text up to `max` characters (NUL cannot be a text parameter in PostgreSQL: a value holding one is no filter). */
  text: (max: number) =>
    z
      .string()
      .trim()
      .min(1)
      .max(max)
      .regex(/^[^\u0000]*$/)
      .optional()
      .catch(undefined),
};
