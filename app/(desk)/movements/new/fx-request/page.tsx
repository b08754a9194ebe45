import type { Metadata } from "next";
import { FxRequestForm } from "@/components/movement-forms/fx-request-form";
import { Alert } from "@/components/ui/field";
import { MovementFormPage } from "@/components/movement-forms/movement-form-page";
import { getMasterMovementAccount } from "@/server/movements/form-data";
import { requirePermission } from "@/server/auth/guard";

export const metadata: Metadata = { title: "FX request" };

/** The FX request form, at the omnibus master account. */
export default async function Page() {
  await requirePermission("movements:write");
  const master = await getMasterMovementAccount();
  return (
    <MovementFormPage title="FX request">
      {master ? (
        <FxRequestForm master={master} />
      ) : (
        <Alert>The master account is not known yet (no virtual account to read it from; set BROKER_MASTER_ACCOUNT_ID).</Alert>
      )}
    </MovementFormPage>
  );
}
