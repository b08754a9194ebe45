import { DeskShell } from "@/app/(desk)/desk-shell";
import { requireStaff } from "@/server/auth/guard";

/** The signed-in desk's pages, in its shell (./desk-shell.tsx). */
export default async function DeskLayout({ children }: { children: React.ReactNode }) {
  // Each page checks the enrolment its staff member owes (server/auth/guard.ts), the enrolment page excepted.
  return <DeskShell staff={await requireStaff({ enrolment: "optional" })}>{children}</DeskShell>;
}
