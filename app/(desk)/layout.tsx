import { DeskShell } from "@/app/(desk)/desk-shell";
import { requireStaff } from "@/server/auth/guard";

/** The signed-in desk's pages, in its shell (./desk-shell.tsx). */
export default async function DeskLayout({ children }: { children: React.ReactNode }) {
  return <DeskShell staff={await requireStaff()}>{children}</DeskShell>;
}
