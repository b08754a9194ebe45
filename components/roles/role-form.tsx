"use client";
import { useRouter } from "next/navigation";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { PERMISSION_LABELS, PERMISSION_LIST } from "@/lib/auth/permissions";
import { roleFormSchema, type RoleFormInput, type RoleView } from "@/lib/schemas/roles";
import { createCustomRole, deleteCustomRoleAction, updateCustomRoleAction } from "@/server/actions/roles";

const { TextField, TextareaField, CheckboxGroupField } = formFields<RoleFormInput>();
const OPTIONS = PERMISSION_LIST.map((p) => ({ value: p, label: PERMISSION_LABELS[p] }));

/** A custom role's name, description and permissions: a new one, or the one given (with its delete button). */
export function RoleForm({ role }: { role?: RoleView }) {
  const router = useRouter();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: roleFormSchema,
    defaultValues: { label: role?.label ?? "", description: role?.description ?? "", permissions: role?.permissions ?? [] },
    action: (input) => (role ? updateCustomRoleAction({ ...input, key: role.key }) : createCustomRole(input)),
    success: (r) =>
      role
        ? `${r.label} saved: its holders have these permissions from their next request.`
        : `${r.label} created. Give it to staff on the Staff page.`,
    // The matrix (a server component) reads the roles again; a new role's form starts empty for the next one.
    onSuccess: (_r, f) => {
      if (!role) f.reset();
      router.refresh();
    },
  });
  const remove = useAction();
  return (
    <Panel title={role ? `Edit role: ${role.label}` : "New role"}>
      <ActionForm
        form={form}
        onSubmit={onSubmit}
        banner={banner}
        className="flex flex-col gap-3"
        aria-label={role ? `Edit role ${role.label}` : "New role"}
      >
        <FormBanner banner={remove.banner} />
        <TextField name="label" label="Name" required autoComplete="off" hint="As staff and the audit trail see it" />
        <TextareaField name="description" label="Description" rows={2} />
        <CheckboxGroupField name="permissions" label="Permissions" options={OPTIONS} />
        <div className="flex items-center gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? "Saving…" : role ? "Save role" : "Create role"}
          </Button>
          {role ? (
            <Button
              type="button"
              variant="danger"
              disabled={remove.busy || busy}
              onClick={() => {
                if (!window.confirm(`Delete the role ${role.label}? This cannot be undone.`)) return;
                void remove.run(() => deleteCustomRoleAction({ key: role.key }), {
                  success: `${role.label} deleted.`,
                  onSuccess: () => router.replace("/admin/roles"),
                });
              }}
            >
              Delete role
            </Button>
          ) : null}
        </div>
      </ActionForm>
    </Panel>
  );
}
