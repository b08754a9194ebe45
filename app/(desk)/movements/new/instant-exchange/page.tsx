import type { Metadata } from "next";
import { InstantExchangeForm } from "@/components/movement-forms/instant-exchange-form";
import { MovementFormPage } from "@/components/movement-forms/movement-form-page";
import { prefill, type SearchParams } from "@/server/movements/form-prefill";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "Instant exchange" };

/** The instant exchange form; `?account=` opens it on that account. */
export default async function Page({ searchParams }: { searchParams: SearchParams }) {
  await requirePermission("movements:write");
  const { accounts, problems } = await prefill(searchParams, ["account"]);
  return (
    <MovementFormPage title="Instant exchange" problems={problems}>
      <InstantExchangeForm account={accounts.account} />
    </MovementFormPage>
  );
}
