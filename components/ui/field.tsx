import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";

/** The form controls' look (a date field's text input takes it too). */
export const control =
  "h-8 w-full rounded border border-slate-300 bg-white px-2 text-sm text-slate-900 placeholder:text-slate-400 aria-[invalid=true]:border-red-600 disabled:bg-slate-100";

export function Input(props: InputHTMLAttributes<HTMLInputElement>) {
  return <input {...props} className={`${control} ${props.className ?? ""}`} />;
}

export function Select(props: SelectHTMLAttributes<HTMLSelectElement>) {
  return <select {...props} className={`${control} ${props.className ?? ""}`} />;
}

/**
 * The options of a select (`Select`, a form's `SelectField`, a bare `<select>`): each value, in words where `labels`
 * names it (a map, or a function of the value), else as it is.
 */
export function Options<V extends string | number>({
  values,
  labels,
}: {
  values: readonly V[];
  labels?: Readonly<Partial<Record<V, ReactNode>>> | ((value: V) => ReactNode);
}) {
  return values.map((v) => (
    <option key={v} value={v}>
      {(typeof labels === "function" ? labels(v) : labels?.[v]) ?? v}
    </option>
  ));
}

export function Textarea(props: TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return <textarea {...props} className={`${control} h-auto py-1 ${props.className ?? ""}`} />;
}

/** The id of a field's error (`FieldError`) while it shows one: what its control, or controls, name in aria-describedby. */
export const errorIdFor = (id: string, error: string | undefined) => (error ? `${id}-error` : undefined);

/** A field's error, `${id}-error`, announced as it appears; nothing without one. Its control(s) name it (`errorIdFor`). */
export function FieldError({ id, error, className }: { id: string; error: string | undefined; className?: string }) {
  return error ? (
    <p id={`${id}-error`} role="alert" className={className ? `${className} text-xs text-red-700` : "text-xs text-red-700"}>
      {error}
    </p>
  ) : null;
}

/**
 * A labelled control with its hint and error message, wired for screen readers. `required` puts a marker beside
 * the label (visual only; the control itself carries aria-required). The error takes the hint's place on screen.
 * Children given as a function get the control's `aria-describedby`: the ids of the hint and the error it shows
 * (undefined when it shows neither), so a screen reader reads them with the control; a control with a hint or an
 * error takes them that way.
 */
export function Field({
  id,
  label,
  error,
  hint,
  required,
  children,
}: {
  id: string;
  label: string;
  error?: string;
  hint?: ReactNode;
  required?: boolean;
  children: ReactNode | ((describedBy: string | undefined) => ReactNode);
}) {
  const hintId = hint && !error ? `${id}-hint` : undefined;
  const describedBy = [hintId, errorIdFor(id, error)].filter(Boolean).join(" ") || undefined;
  return (
    <div className="flex flex-col gap-1">
      <span className="flex items-baseline gap-0.5 text-xs font-medium text-slate-700">
        <label htmlFor={id}>{label}</label>
        {/* outside the label: the control's name stays the label's words */}
        {required ? (
          <span aria-hidden="true" className="text-red-700">
            *
          </span>
        ) : null}
      </span>
      {typeof children === "function" ? children(describedBy) : children}
      {hintId ? (
        <p id={hintId} className="text-xs text-slate-500">
          {hint}
        </p>
      ) : null}
      <FieldError id={id} error={error} />
    </div>
  );
}

export function Alert({ tone = "error", children }: { tone?: "error" | "info" | "success"; children: ReactNode }) {
  const tones = {
    error: "border-red-200 bg-red-50 text-red-800",
    info: "border-blue-200 bg-blue-50 text-blue-900",
    success: "border-emerald-200 bg-emerald-50 text-emerald-900",
  };
  return (
    <div role={tone === "error" ? "alert" : "status"} className={`rounded border px-3 py-2 text-sm ${tones[tone]}`}>
      {children}
    </div>
  );
}
