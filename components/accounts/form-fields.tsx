"use client";
import type { InputHTMLAttributes, ReactNode } from "react";
import { get, useFormContext, type FieldErrors } from "react-hook-form";
import { Field, Input, Select } from "@/components/ui/field";
import type { AccountFormValues } from "@/lib/schemas/virtual-account";

/** Inputs bound to the account form by dotted name, each with its label and its (client or upstream) error. */
export function errorAt(errors: FieldErrors, name: string): string | undefined {
  return (get(errors, name) as { message?: string } | undefined)?.message;
}

const idOf = (name: string) => `f-${name.replace(/\./g, "-")}`;

export function TextField({ name, label, hint, ...rest }: { name: string; label: string; hint?: ReactNode } & InputHTMLAttributes<HTMLInputElement>) {
  const { register, formState } = useFormContext<AccountFormValues>();
  const error = errorAt(formState.errors, name);
  return (
    <Field id={idOf(name)} label={label} error={error} hint={hint}>
      <Input id={idOf(name)} aria-invalid={!!error} aria-describedby={error ? `${idOf(name)}-error` : undefined} {...rest} {...register(name as never)} />
    </Field>
  );
}

export function SelectField({ name, label, hint, children, disabled }: { name: string; label: string; hint?: ReactNode; children: ReactNode; disabled?: boolean }) {
  const { register, formState } = useFormContext<AccountFormValues>();
  const error = errorAt(formState.errors, name);
  return (
    <Field id={idOf(name)} label={label} error={error} hint={hint}>
      <Select id={idOf(name)} aria-invalid={!!error} disabled={disabled} {...register(name as never)}>
        {children}
      </Select>
    </Field>
  );
}

export function Section({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  return (
    <fieldset className="rounded border border-slate-200 bg-white">
      <legend className="sr-only">{title}</legend>
      <div className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold text-slate-800">{title}</h2>
        {aside}
      </div>
      <div className="grid gap-3 p-3">{children}</div>
    </fieldset>
  );
}
