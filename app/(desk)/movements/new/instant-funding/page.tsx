import type { Metadata } from "next";
import { InstantFundingForm } from "@/components/movement-forms/instant-funding-form";
import { MovementFormPage } from "@/components/movement-forms/movement-form-page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Deposit or withdrawal" };

/** Instant funding; `?account=` opens it on that account, `?type=WITHDRAWAL` on a withdrawal. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  await requirePermission("movements:write");
  const { accounts, problems, params } = await prefill(searchParams, ["account"]);
  return (
    <MovementFormPage title="Deposit or withdrawal" problems={problems}>
      <InstantFundingForm account={accounts.account} type={params.type === "WITHDRAWAL" ? "WITHDRAWAL" : "DEPOSIT"} />
    </MovementFormPage>
  );
}
