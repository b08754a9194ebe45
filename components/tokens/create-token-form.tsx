"use client";
import { useQueryClient } from "@tanstack/react-query";
import { FormProvider } from "react-hook-form";
import { formFields } from "@/components/form/fields";
import { FormBanner } from "@/components/form/form-banner";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import {
  createTokenSchema,
  TOKEN_ACCESS,
  TOKEN_ACCESS_LABELS,
  TOKEN_EXPIRY_DAYS,
  type CreatedToken,
  type CreateTokenInput,
} from "@/lib/schemas/tokens";
import { createAccessToken } from "@/server/actions/tokens-create";
import { invalidateTokenLists } from "./query-keys";

const { SelectField, TextField } = formFields<CreateTokenInput>();

/** A new token for the signed-in staff member: what it is for, what it may do, how long it lives. */
export function CreateTokenForm({ onCreated }: { onCreated: (token: CreatedToken) => void }) {
  const queryClient = useQueryClient();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: createTokenSchema,
    defaultValues: { name: "", access: "read", expiresInDays: "30" },
    action: createAccessToken,
    onSuccess: async (token, f) => {
      f.reset();
      onCreated(token);
      await invalidateTokenLists(queryClient);
    },
  });

  return (
    <Panel title="New access token">
      <FormProvider {...form}>
        <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
          <FormBanner banner={banner} />
          <TextField name="name" label="Name" required autoComplete="off" hint="What will use it, e.g. “Claude on my laptop”." />
          <SelectField name="access" label="Access" required hint="Write lets it act (where the desk's tools allow) as well as read.">
            {TOKEN_ACCESS.map((a) => (
              <option key={a} value={a}>
                {TOKEN_ACCESS_LABELS[a]}
              </option>
            ))}
          </SelectField>
          <SelectField name="expiresInDays" label="Expires after" required>
            {TOKEN_EXPIRY_DAYS.map((d) => (
              <option key={d} value={d}>
                {d} days
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={busy}>
            {busy ? "Creating…" : "Create token"}
          </Button>
        </form>
      </FormProvider>
    </Panel>
  );
}
