/**
 * Query keys of the orders pages. Under "orders" (the live topic's root): the changes since the watermark and an
 * order's detail, read again on each order notice. The blotter's pages are under "blotter": a notice never reads
 * every page read so far again (the changes query brings what changed).
 */
export const orderKeys = {
  changes: (query: string) => ["orders", "blotter", "changes", query] as const,
  detail: (id: string) => ["orders", "detail", id] as const,
};

/** The blotter's keyset pages of one filter (`apiQuery` without the cursor), shared by the page's prefetch and the hook. */
export const blotterPages = {
  key: (query: string) => ["blotter", "pages", query] as const,
};
