"use client";
import type { FormEventHandler, FormHTMLAttributes, ReactNode } from "react";
import { FormProvider, type FieldValues, type UseFormReturn } from "react-hook-form";
import type { Banner } from "./action-feedback";
import { FormBanner } from "./form-banner";

/**
 * A form over a server action, as `useActionForm` gives it: its fields see the form (`FormProvider`), the browser's
 * own checks stay off (the schema checks), and the banner stands at the top, before the fields. The rest are the
 * `<form>`'s attributes (its classes, its accessible name).
 */
export function ActionForm<TValues extends FieldValues, TContext, TOutput>({
  form,
  onSubmit,
  banner,
  children,
  ...attributes
}: {
  form: UseFormReturn<TValues, TContext, TOutput>;
  onSubmit: FormEventHandler<HTMLFormElement>;
  banner: Banner | undefined;
  children: ReactNode;
} & Omit<FormHTMLAttributes<HTMLFormElement>, "onSubmit" | "noValidate" | "children">) {
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate {...attributes}>
        <FormBanner banner={banner} />
        {children}
      </form>
    </FormProvider>
  );
}
