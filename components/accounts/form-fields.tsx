"use client";
import { formFields } from "@/components/form/fields";
import type { AccountFormValues } from "@/lib/schemas/virtual-account";

/** The generic field components, typed to the account form: a misspelt field name does not compile. */
export const { CheckboxField, CheckboxGroupField, DateField, SelectField, TextField } = formFields<AccountFormValues>();
