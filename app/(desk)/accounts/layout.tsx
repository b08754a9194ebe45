import type { ReactNode } from "react";
import { requirePermission } from "@/server/auth/guard";

/**
 * The permission is checked here, above any loading.tsx Suspense boundary, so a refusal is a real 403 (loading.tsx
 * files live in route groups, (list) and (detail), so they never wrap the new and edit pages). TanStack Query's
 * provider is the desk layout's.
 */
export default async function AccountsLayout({ children }: { children: ReactNode }) {
  await requirePermission("accounts:read");
  return children;
}
