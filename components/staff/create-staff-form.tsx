"use client";
import { zodResolver } from "@hookform/resolvers/zod";
import { useState } from "react";
import { useForm } from "react-hook-form";
import { Button } from "@/components/ui/button";
import { Alert, Field, Input, Select } from "@/components/ui/field";
import { Panel } from "@/components/ui/page";
import { ROLE_LABELS, ROLES } from "@/lib/auth/permissions";
import { createStaffSchema, type CreateStaffInput } from "@/lib/schemas/staff";
import { createStaffUser } from "@/server/actions/staff-create";

export function CreateStaffForm() {
  const [result, setResult] = useState<{ tone: "error" | "success"; text: string }>();
  const form = useForm<CreateStaffInput>({
    resolver: zodResolver(createStaffSchema),
    defaultValues: { email: "", name: "", role: "support", password: "" },
  });
  const { errors, isSubmitting } = form.formState;

  const onSubmit = form.handleSubmit(async (values) => {
    const res = await createStaffUser(values);
    if (res.ok) {
      setResult({ tone: "success", text: `${res.data.email} can now sign in.` });
      form.reset();
      return;
    }
    for (const [field, message] of Object.entries(res.fieldErrors ?? {})) {
      form.setError(field as keyof CreateStaffInput, { message });
    }
    setResult({ tone: "error", text: res.serverError });
  });

  return (
    <Panel title="New staff user">
      <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
        {result ? <Alert tone={result.tone}>{result.text}</Alert> : null}
        <Field id="new-name" label="Name" error={errors.name?.message}>
          <Input id="new-name" aria-invalid={!!errors.name} {...form.register("name")} />
        </Field>
        <Field id="new-email" label="Email" error={errors.email?.message}>
          <Input id="new-email" type="email" aria-invalid={!!errors.email} {...form.register("email")} />
        </Field>
        <Field id="new-role" label="Role" error={errors.role?.message}>
          <Select id="new-role" {...form.register("role")}>
            {ROLES.map((r) => (
              <option key={r} value={r}>
                {ROLE_LABELS[r]}
              </option>
            ))}
          </Select>
        </Field>
        <Field id="new-password" label="Initial password" error={errors.password?.message} hint="At least 12 characters. Share it privately.">
          <Input id="new-password" type="password" autoComplete="new-password" aria-invalid={!!errors.password} {...form.register("password")} />
        </Field>
        <Button type="submit" disabled={isSubmitting}>
          {isSubmitting ? "Creating…" : "Create user"}
        </Button>
      </form>
    </Panel>
  );
}
