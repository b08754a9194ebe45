"use client";
import { useRouter } from "next/navigation";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { checkApprovalExecutionAction } from "@/server/actions/approvals";

/** An admin's "Check the upstream now" for an execution whose process stopped (the minute job does it anyway). */
export function ApprovalCheck({ id }: { id: string }) {
  const router = useRouter();
  const { run, busy, banner } = useAction();
  return (
    <div className="flex flex-col gap-2" data-testid="approval-check">
      <FormBanner banner={banner} />
      <div>
        <Button
          variant="secondary"
          disabled={busy}
          onClick={() =>
            void run(() => checkApprovalExecutionAction({ id }), {
              success: (o) =>
                o.status === "executing"
                  ? "The upstream could not answer yet: it is asked again every minute."
                  : "Settled from the upstream's answer.",
              onSuccess: () => router.refresh(),
            })
          }
        >
          {busy ? "Checking…" : "Check the upstream now"}
        </Button>
      </div>
    </div>
  );
}
