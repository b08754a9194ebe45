"use client";
import { useQueryClient, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { type DefaultValues } from "react-hook-form";
import type { z } from "zod";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Options } from "@/components/ui/field";
import { Panel } from "@/components/ui/page";
import type { ActionResult } from "@/lib/errors";
import { TOKEN_ACCESS, TOKEN_ACCESS_LABELS, type TokenAccess } from "@/lib/schemas/tokens";

/** What every staff credential is made with (`credentialFields`). */
export type CredentialValues = { name: string; access: TokenAccess };

const { SelectField, TextField } = formFields<CredentialValues>();

/** The create form of a kind of credential: its panel's title, schema and action, its hints, its own fields, its button. */
export interface CredentialFormKind<V extends CredentialValues, C> {
  title: string;
  schema: z.ZodType<V, V>;
  defaultValues: DefaultValues<V>;
  action: (values: V) => Promise<ActionResult<C>>;
  /** What the name says, e.g. what will use it. */
  nameHint: string;
  /** What write access lets it do. */
  accessHint: string;
  /** Its own fields, after the access. */
  more?: ReactNode;
  submit: string;
}

/**
 * A new credential for the signed-in staff member (an access token, an access key of the command line): its name,
 * what it may do, and the kind's own fields. Made, it is handed to `onCreated` and the kind's lists read again.
 */
export function CreateCredentialForm<V extends CredentialValues, C>({
  kind,
  invalidate,
  onCreated,
}: {
  kind: CredentialFormKind<V, C>;
  invalidate: (client: QueryClient) => Promise<void>;
  onCreated: (created: C) => void;
}) {
  const queryClient = useQueryClient();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: kind.schema,
    defaultValues: kind.defaultValues,
    action: kind.action,
    onSuccess: async (created, f) => {
      f.reset();
      onCreated(created);
      await invalidate(queryClient);
    },
  });

  return (
    <Panel title={kind.title}>
      <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3">
        <TextField name="name" label="Name" required autoComplete="off" hint={kind.nameHint} />
        <SelectField name="access" label="Access" required hint={kind.accessHint}>
          <Options values={TOKEN_ACCESS} labels={TOKEN_ACCESS_LABELS} />
        </SelectField>
        {kind.more}
        <Button type="submit" disabled={busy}>
          {busy ? "Creating…" : kind.submit}
        </Button>
      </ActionForm>
    </Panel>
  );
}
