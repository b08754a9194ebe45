import { notFound } from "next/navigation";
import type { ReactNode } from "react";
import { ReadAt } from "@/components/live/read-at";
import type { Permission } from "@/lib/auth/permissions";
import { requirePermission, type PageGuardOptions, type Staff } from "@/server/auth/guard";
import { requestReadAt } from "@/server/notices/read-at";

/**
 * The layout of a page's route group: the permission is checked here, above the group's loading.tsx (a Suspense
 * boundary), so a refusal is a real 403 rather than a 200 whose body says so (the page streams behind loading.tsx).
 * Pages call requirePermission too (cached per request) for the staff member they act for.
 */
export function guardedLayout(permission: Permission, options?: PageGuardOptions) {
  return async function GuardedLayout({ children }: { children: ReactNode }) {
    await requirePermission(permission, options);
    return children;
  };
}

/**
 * The layout of a page about one thing (an order, an alert…): the permission, then the thing looked up (`find`, a
 * React `cache()` the page calls too, so it is read once a request), both above the page's loading.tsx, so an
 * unknown one is a real 404.
 */
export function lookupLayout<P>(permission: Permission, find: (params: P) => Promise<unknown>) {
  return async function LookupLayout({ children, params }: { children: ReactNode; params: Promise<P> }) {
    await requirePermission(permission);
    requestReadAt();
    if (!(await find(await params))) notFound();
    return children;
  };
}

/**
 * The page under a `lookupLayout`: the permission again (for the staff member the page acts for), the thing found by
 * the same `find` (the request's cached read), then what the page shows of it, under `ReadAt` (when the request began
 * to read: components that start from the server's data read it again if a change was heard since).
 */
export function lookupPage<P, T>(
  permission: Permission,
  find: (params: P) => Promise<T | null | undefined>,
  view: (found: T, page: { staff: Staff; params: P }) => ReactNode | Promise<ReactNode>,
) {
  return async function LookupPage({ params }: { params: Promise<P> }) {
    const staff = await requirePermission(permission);
    const p = await params;
    const readAt = requestReadAt();
    const found = await find(p);
    if (!found) notFound();
    return <ReadAt at={readAt}>{await view(found, { staff, params: p })}</ReadAt>;
  };
}
