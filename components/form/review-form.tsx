"use client";
import type { FormEvent, ReactNode } from "react";
import { FormProvider, type FieldValues, type UseFormReturn } from "react-hook-form";

/**
 * A form whose fields fill the page and whose review (the movement forms' review and send, the order ticket's preview
 * and place) stands beside them in a panel that stays in view while the fields scroll.
 */
export function ReviewForm<V extends FieldValues, C, O extends FieldValues>({
  form,
  onSubmit,
  label,
  width,
  beside,
  panelLabel,
  panelTitle,
  panelClassName = "",
  panel,
  children,
}: {
  form: UseFormReturn<V, C, O>;
  onSubmit: (e: FormEvent<HTMLFormElement>) => void;
  label: string;
  /** The page's width and the panel's column. */
  width: "max-w-6xl lg:grid-cols-[minmax(0,1fr)_24rem]" | "max-w-7xl lg:grid-cols-[minmax(0,1fr)_22rem]";
  /** Live facts above the panel (available cash, the quote). */
  beside?: ReactNode;
  panelLabel: string;
  panelTitle: string;
  panelClassName?: string;
  panel: ReactNode;
  children: ReactNode;
}) {
  return (
    <FormProvider {...form}>
      <form onSubmit={onSubmit} noValidate aria-label={label} className={`grid gap-3 ${width}`}>
        <div className="flex min-w-0 flex-col gap-3">{children}</div>
        <aside className="flex flex-col gap-3 self-start lg:sticky lg:top-3">
          {beside}
          <section className="rounded border border-slate-200 bg-white" aria-label={panelLabel}>
            <header className="border-b border-slate-200 px-3 py-2">
              <h2 className="text-sm font-semibold text-slate-800">{panelTitle}</h2>
            </header>
            <div className={`flex flex-col gap-3 p-3 ${panelClassName}`}>{panel}</div>
          </section>
        </aside>
      </form>
    </FormProvider>
  );
}
