import type { ReactNode } from "react";
import { requirePermission } from "@/server/auth/guard";

// The permission is checked here, above the page's loading boundary: a refusal is then a 403 before anything streams.
export default async function JobsLayout({ children }: { children: ReactNode }) {
  await requirePermission("jobs:manage");
  return children;
}
