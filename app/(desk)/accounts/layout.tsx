import type { ReactNode } from "react";
import { QueryProvider } from "@/components/data-table/query-provider";

// TanStack Query for the accounts pages (the desk layout has no provider yet; it can move up when others need it).
export default function AccountsLayout({ children }: { children: ReactNode }) {
  return <QueryProvider>{children}</QueryProvider>;
}
