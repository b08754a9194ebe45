"use client";
import { useQueryClient } from "@tanstack/react-query";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import type { RoleOption } from "@/lib/schemas/roles";
import { createStaffSchema, type CreateStaffInput } from "@/lib/schemas/staff";
import { createStaffUser } from "@/server/actions/staff";

const { SelectField, TextField } = formFields<CreateStaffInput>();

export function CreateStaffForm({ roles }: { roles: RoleOption[] }) {
  const queryClient = useQueryClient();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: createStaffSchema,
    defaultValues: { email: "", name: "", role: "support", password: "" },
    action: createStaffUser,
    success: (user) => `${user.email} can now sign in.`,
    onSuccess: async (_user, f) => {
      f.reset();
      await queryClient.invalidateQueries({ queryKey: ["staff"] });
    },
  });

  return (
    <Panel title="New staff user">
      <ActionForm form={form} onSubmit={onSubmit} banner={banner} className="flex flex-col gap-3">
        <TextField name="name" label="Name" required autoComplete="off" />
        <TextField name="email" label="Email" type="email" required autoComplete="off" />
        <SelectField name="role" label="Role" required>
          {roles.map((r) => (
            <option key={r.value} value={r.value}>
              {r.label}
            </option>
          ))}
        </SelectField>
        <TextField
          name="password"
          label="Initial password"
          type="password"
          required
          autoComplete="new-password"
          hint="At least 12 characters. Share it privately."
        />
        <Button type="submit" disabled={busy}>
          {busy ? "Creating…" : "Create user"}
        </Button>
      </ActionForm>
    </Panel>
  );
}
