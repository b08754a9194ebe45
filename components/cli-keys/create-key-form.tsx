"use client";
import { useQueryClient } from "@tanstack/react-query";
import { FormProvider } from "react-hook-form";
import { formFields } from "@/components/form/fields";
import { FormBanner } from "@/components/form/form-banner";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { createAccessKeySchema, type CreateAccessKeyInput, type CreatedAccessKey } from "@/lib/schemas/access-keys";
import { TOKEN_ACCESS, TOKEN_ACCESS_LABELS } from "@/lib/schemas/tokens";
import { createCliAccessKey } from "@/server/actions/cli-keys-create";
import { invalidateAccessKeyLists } from "./query-keys";

const { SelectField, TextField } = formFields<CreateAccessKeyInput>();

/** A new access key pair for the signed-in staff member: where it is used, what it may do. */
export function CreateKeyForm({ onCreated }: { onCreated: (key: CreatedAccessKey) => void }) {
  const queryClient = useQueryClient();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: createAccessKeySchema,
    defaultValues: { name: "", access: "read" },
    action: createCliAccessKey,
    onSuccess: async (key, f) => {
      f.reset();
      onCreated(key);
      await invalidateAccessKeyLists(queryClient);
    },
  });

  return (
    <Panel title="New access key">
      <FormProvider {...form}>
        <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
          <FormBanner banner={banner} />
          <TextField name="name" label="Name" required autoComplete="off" hint="Where it is used, e.g. “work laptop”." />
          <SelectField
            name="access"
            label="Access"
            required
            hint="Write lets the command line act (where the desk's tools allow) as well as read."
          >
            {TOKEN_ACCESS.map((a) => (
              <option key={a} value={a}>
                {TOKEN_ACCESS_LABELS[a]}
              </option>
            ))}
          </SelectField>
          <Button type="submit" disabled={busy}>
            {busy ? "Creating…" : "Create access key"}
          </Button>
        </form>
      </FormProvider>
    </Panel>
  );
}
