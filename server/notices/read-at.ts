import "server-only";
import { cache } from "react";

/**
 * When this request began to read what a page shows, by the server's clock (ms since the epoch): the first call of a
 * request fixes it, so a page and its layout, each calling it before their first read, share the earliest. The tab
 * compares it with the times of the change notices it heard (`dehydrateAsOf`, `ReadAt`, components/live): a change
 * heard at or after it may be missing from the page, which reads it again.
 */
export const requestReadAt = cache(() => Date.now());
