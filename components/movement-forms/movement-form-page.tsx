import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/page";

/** The frame of every new-movement page: its title, the way back to the other movements, what the URL's prefill could not use, the form. */
export function MovementFormPage({ title, problems = [], children }: { title: string; problems?: string[]; children: ReactNode }) {
  return (
    <>
      <PageHeader
        title={title}
        back={{ href: "/movements/new", label: "Other movements" }}
        problem={problems.length ? `${problems.join(" ")} Choose the account below.` : undefined}
      />
      {children}
    </>
  );
}
