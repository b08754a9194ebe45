import { z } from "zod";
import { isDeskDate } from "@/lib/format";

/**
 * A listing's URL state, declared once (model: sadmann7/tablecn src/lib/parsers.ts). A resource declares its
 * filters; the builder adds the generic keys every table has:
 *
 * - `size`   rows per page, one of `sizes`;
 * - `cursor` the opaque cursor of the current page (absent on the first page);
 * - `prev`   the cursors of the pages before this one, comma-separated, `-` standing for the first page, so
 *            "Previous" works with keyset paging: the newest of them, at most `TRAIL_CHARS` characters, so the
 *            address stays short however deep the reader pages;
 * - `page`   the page's number, once the trail no longer reaches back to the first page (it says it otherwise);
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
  /**
   * Cursors of the earlier pages, oldest first; FIRST_PAGE stands for the first page. The newest only, at most
   * `TRAIL_CHARS` characters: on a deep page the trail does not reach back to the first page.
   */
  prev: string[];
  /** The page's number when the trail does not start at the first page (`pageNumber` reads it). */
  page?: number;
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
/**
 * The most the cursor trail (`prev`) holds, in characters: its newest cursors that fit, the older ones dropped. With
 * the current cursor (at most 512), the filters and the hidden columns, an address stays well under 4 KB; cursors of
 * about 50 characters keep some 40 pages of "Previous".
 */
export const TRAIL_CHARS = 2048;
/** The longest `prev` read from a URL (a longer one is no trail); what is read is cut to `TRAIL_CHARS`. */
const TRAIL_READ_CHARS = 16_384;
const GENERIC_KEYS = ["size", "cursor", "prev", "page", "sort", "hide"] as const;
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
    prev: z
      .string()
      .max(TRAIL_READ_CHARS)
      .optional()
      .catch(undefined)
      .transform((s) => capTrail(splitList(s))),
    page: z.coerce.number().int().min(2).max(10_000_000).optional().catch(undefined),
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
    /** What the server's answer depends on (query keys, GET route URLs): everything but `hide`, `prev` and `page`. */
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

type Trail = Pick<PageState, "cursor" | "prev" | "page">;

/** The newest cursors of a trail that fit in `TRAIL_CHARS` (joined by commas). */
function capTrail(prev: string[]): string[] {
  let chars = -1;
  let i = prev.length;
  while (i > 0 && chars + 1 + prev[i - 1].length <= TRAIL_CHARS) chars += 1 + prev[--i].length;
  return i === 0 ? prev : prev.slice(i);
}

/** A trail that reaches back to the first page tells the page's number by itself; a cut one carries it. */
const reachesFirst = (prev: readonly string[]) => prev[0] === FIRST_PAGE;

/**
 * The page's number, from 1. A trail back to the first page counts it; a cut one (a deep page) is at least one page
 * longer than it holds, and its `page` says how much.
 */
export function pageNumber(state: Pick<PageState, "cursor" | "prev" | "page">): number {
  if (!state.cursor) return 1;
  if (reachesFirst(state.prev)) return state.prev.length + 1;
  return Math.max(state.page ?? 0, state.prev.length + 2);
}

/** The patch of a page `number` with its `cursor` and trail (`page` only when the trail does not count it). */
function at(number: number, cursor: string | undefined, prev: string[]): Trail {
  if (!cursor) return firstPage();
  return { cursor, prev, page: reachesFirst(prev) ? undefined : number };
}

/** The patch that moves to the next page, remembering where this one started (the newest cursors, `TRAIL_CHARS`). */
export function nextPage(state: PageState, nextCursor: string): Trail {
  return at(pageNumber(state) + 1, nextCursor, capTrail([...state.prev, state.cursor ?? FIRST_PAGE]));
}

/** Whether "Previous" can go back one page: the trail holds the page before (or this is the second page). */
export function hasPreviousPage(state: PageState): boolean {
  return !!state.cursor && (state.prev.length > 0 || pageNumber(state) === 2);
}

/**
 * The patch that goes back one page. A trail used up (the reader went back further than it held) goes to the first
 * page: "Previous" is offered there only on the second page (`hasPreviousPage`).
 */
export function previousPage(state: PageState): Trail {
  const cursor = state.prev.at(-1);
  if (!cursor || cursor === FIRST_PAGE) return firstPage();
  return at(pageNumber(state) - 1, cursor, state.prev.slice(0, -1));
}

/** Back to the first page (after a filter, sort or page size change, where the cursors no longer apply). */
export function firstPage(): Trail {
  return { cursor: undefined, prev: [], page: undefined };
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
