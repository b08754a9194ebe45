"use client";
import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { get, useFormContext, type FieldErrors, type FieldPath, type FieldValues, type UseFormRegister } from "react-hook-form";
import { DateInput } from "@/components/ui/date-input";
import { Field, FieldError, errorIdFor, Input, Options, Select, Textarea, control as controlClass } from "@/components/ui/field";
import { CURRENCIES } from "@/lib/broker-enums";

/**
 * Fields bound by name to the surrounding react-hook-form form (`<FormProvider>`), each with its label, required
 * marker, hint and (client or server) error. Generic over the form's values: `<TextField<StaffValues> name="email">`,
 * or once per form with `formFields<StaffValues>()`.
 */
export function errorAt(errors: FieldErrors, name: string): string | undefined {
  return (get(errors, name) as { message?: string } | undefined)?.message;
}

/** Element ids from field names ("w8ben_info.city" → "f-w8ben_info-city"); the error is `${id}-error`. */
export const fieldId = (name: string) => `f-${name.replace(/\./g, "-")}`;

export function useFieldError(name: string): string | undefined {
  const { formState } = useFormContext();
  return errorAt(formState.errors, name);
}

interface FieldProps<T extends FieldValues> {
  name: FieldPath<T>;
  label: string;
  hint?: ReactNode;
  required?: boolean;
}

type ControlProps = ReturnType<UseFormRegister<FieldValues>> & {
  id: string;
  "aria-invalid": boolean;
  "aria-required"?: boolean;
  "aria-describedby"?: string;
};

/**
 * The wiring every bound control shares: id, register, aria attributes, and the Field around the control, which
 * names its hint and error in the control's aria-describedby.
 */
function BoundField<T extends FieldValues>({
  name,
  label,
  hint,
  required,
  control,
}: FieldProps<T> & { control: (props: ControlProps) => ReactNode }) {
  const { register } = useFormContext<T>();
  const error = useFieldError(name);
  const id = fieldId(name);
  const props = {
    id,
    "aria-invalid": !!error,
    "aria-required": required || undefined,
    ...register(name),
  };
  return (
    <Field id={id} label={label} error={error} hint={hint} required={required}>
      {(describedBy) => control({ ...props, "aria-describedby": describedBy })}
    </Field>
  );
}

type Native<E> = Omit<E, "name" | "id" | "children">;

function TextField<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  required,
  ...rest
}: FieldProps<T> & Native<InputHTMLAttributes<HTMLInputElement>>) {
  return <BoundField<T> name={name} label={label} hint={hint} required={required} control={(p) => <Input {...rest} {...p} />} />;
}

/** A calendar day typed or picked as yyyy-mm-dd, whatever the browser's locale (`DateInput`). */
function DateField<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  required,
  ...rest
}: FieldProps<T> & Omit<Native<InputHTMLAttributes<HTMLInputElement>>, "type">) {
  const control = (p: ControlProps) => <DateInput {...rest} {...p} className={`${controlClass} ${rest.className ?? ""}`} />;
  return <BoundField<T> name={name} label={label} hint={hint} required={required} control={control} />;
}

function SelectField<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  required,
  children,
  ...rest
}: FieldProps<T> & Native<SelectHTMLAttributes<HTMLSelectElement>> & { children: ReactNode }) {
  return (
    <BoundField<T>
      name={name}
      label={label}
      hint={hint}
      required={required}
      control={(p) => (
        <Select {...rest} {...p}>
          {children}
        </Select>
      )}
    />
  );
}

/** A select of the currencies the desk handles (`CURRENCIES`), after an `any` choice (value "") where none may be chosen. */
function CurrencyField<T extends FieldValues = FieldValues>({
  any,
  ...props
}: FieldProps<T> & Native<SelectHTMLAttributes<HTMLSelectElement>> & { any?: string }) {
  return (
    <SelectField<T> {...props}>
      {any === undefined ? null : <option value="">{any}</option>}
      <Options values={CURRENCIES} />
    </SelectField>
  );
}

export function TextareaField<T extends FieldValues = FieldValues>({
  name,
  label,
  hint,
  required,
  ...rest
}: FieldProps<T> & Native<TextareaHTMLAttributes<HTMLTextAreaElement>>) {
  return <BoundField<T> name={name} label={label} hint={hint} required={required} control={(p) => <Textarea {...rest} {...p} />} />;
}

/**
 * One boolean checkbox, label to its right. `errorOf` names the field whose error describes it and marks it invalid,
 * an error the form shows with `FieldError` under the checkboxes one rule ties together (the ticket's take-profit and
 * stop-loss: the rule's error is at the first's name).
 */
function CheckboxField<T extends FieldValues = FieldValues>({
  name,
  label,
  errorOf,
}: {
  name: FieldPath<T>;
  label: ReactNode;
  errorOf?: FieldPath<T>;
}) {
  const { register } = useFormContext<T>();
  // Read whatever the name (hooks are not conditional); only `errorOf`'s error describes the checkbox.
  const error = useFieldError(errorOf ?? name);
  const described = errorOf ? errorIdFor(fieldId(errorOf), error) : undefined;
  return (
    <label className="flex items-center gap-2 text-sm">
      <input
        type="checkbox"
        id={fieldId(name)}
        aria-invalid={described ? true : undefined}
        aria-describedby={described}
        {...register(name)}
      />
      {label}
    </label>
  );
}

/** Several checkboxes filling one array field; its error shows under the group. */
function CheckboxGroupField<T extends FieldValues = FieldValues>({
  name,
  label,
  options,
}: {
  name: FieldPath<T>;
  label: string;
  options: readonly { value: string; label: ReactNode }[];
}) {
  const { register } = useFormContext<T>();
  const error = useFieldError(name);
  const id = fieldId(name);
  return (
    <div role="group" aria-labelledby={`${id}-label`} aria-describedby={errorIdFor(id, error)}>
      <p id={`${id}-label`} className="mb-1 text-xs font-medium text-slate-700">
        {label}
      </p>
      <div className="grid grid-cols-2 gap-x-4 gap-y-1">
        {options.map((o) => (
          <label key={o.value} className="flex items-center gap-2 text-sm">
            <input type="checkbox" value={o.value} {...register(name)} />
            {o.label}
          </label>
        ))}
      </div>
      <FieldError id={id} error={error} className="mt-1" />
    </div>
  );
}

/** A titled group of fields. */
export function FormSection({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
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

/** The field components typed to one form's values, so `name` is checked without a type argument at each use. */
export function formFields<T extends FieldValues>() {
  return {
    TextField: TextField<T>,
    DateField: DateField<T>,
    SelectField: SelectField<T>,
    CurrencyField: CurrencyField<T>,
    TextareaField: TextareaField<T>,
    CheckboxField: CheckboxField<T>,
    CheckboxGroupField: CheckboxGroupField<T>,
  };
}
