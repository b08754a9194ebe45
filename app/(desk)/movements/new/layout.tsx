import type { ReactNode } from "react";
import { requirePermission } from "@/server/auth/guard";

// Checked in the layout (and no loading.tsx above it): a refused user gets a real 403, not a streamed 200.
export default async function NewMovementLayout({ children }: { children: ReactNode }) {
  await requirePermission("movements:write");
  return children;
}
