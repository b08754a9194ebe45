"use client";
import { ActionForm } from "@/components/form/action-form";
import { formFields } from "@/components/form/fields";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import type { RoleOption } from "@/lib/schemas/roles";
import { requiredRolesSchema, type RequiredRolesInput } from "@/lib/schemas/two-factor";
import { setTwoFactorRoles } from "@/server/actions/two-factor";

const { CheckboxGroupField } = formFields<RequiredRolesInput>();

/** The roles whose members must sign in with a code: one without an authenticator is sent to enrol first. */
export function TwoFactorRolesForm({ required, roles: options }: { required: string[]; roles: RoleOption[] }) {
  const labelOf = (r: string) => options.find((o) => o.value === r)?.label ?? r;
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: requiredRolesSchema,
    defaultValues: { roles: required },
    action: setTwoFactorRoles,
    success: ({ roles }) =>
      roles.length ? `Two-factor sign-in is required of: ${roles.map(labelOf).join(", ")}.` : "No role requires two-factor sign-in.",
    onSuccess: ({ roles }, f) => f.reset({ roles }),
  });
  return (
    <Panel title="Two-factor sign-in">
      <ActionForm
        form={form}
        onSubmit={onSubmit}
        banner={banner}
        className="flex flex-col gap-3"
        aria-label="Roles that require two-factor sign-in"
      >
        <CheckboxGroupField name="roles" label="Required of" options={options} />
        <p className="text-xs text-slate-500">
          Staff of these roles sign in with a code from an authenticator app; who has none is sent to set one up.
        </p>
        <Button type="submit" disabled={busy}>
          {busy ? "Saving…" : "Save"}
        </Button>
      </ActionForm>
    </Panel>
  );
}
