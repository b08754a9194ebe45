import type { ReactNode } from "react";
import { QueryProvider } from "@/components/data-table/query-provider";
import { requirePermission } from "@/server/auth/guard";

/**
 * TanStack Query for the accounts pages (the desk layout has no provider yet; it can move up when others need
 * it). The permission is checked here too, above any loading.tsx Suspense boundary, so a refusal is a real 403
 * (loading.tsx files live in route groups, (list) and (detail), so they never wrap the new and edit pages).
 */
export default async function AccountsLayout({ children }: { children: ReactNode }) {
  await requirePermission("accounts:read");
  return <QueryProvider>{children}</QueryProvider>;
}
