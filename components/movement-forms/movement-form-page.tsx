import Link from "next/link";
import type { ReactNode } from "react";
import { Alert } from "@/components/ui/field";
import { PageHeader } from "@/components/ui/page";

/** The frame of every new-movement page: its title, the way back to the other movements, what the URL's prefill could not use, the form. */
export function MovementFormPage({ title, problems = [], children }: { title: string; problems?: string[]; children: ReactNode }) {
  return (
    <>
      <PageHeader
        title={title}
        description={
          <Link href="/movements/new" className="text-blue-700 hover:underline">
            ← Other movements
          </Link>
        }
      />
      {problems.length ? (
        <div className="mb-3">
          <Alert>{problems.join(" ")} Choose the account below.</Alert>
        </div>
      ) : null}
      {children}
    </>
  );
}
