/* eslint-disable react/no-children-prop -- no JSX in a .ts test: children are given as props (a Field's function child too) */
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FormProvider, useForm, type FieldErrors } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { formFields } from "@/components/form/fields";
import { Field, Input } from "@/components/ui/field";

type Values = { name: string; day: string; kind: string; note: string; tags: string[] };
const { TextField, DateField, SelectField, TextareaField, CheckboxGroupField } = formFields<Values>();

/** Bound fields rendered in a form holding `errors` (as after a failed submit). */
function InForm({ errors, children }: { errors?: FieldErrors<Values>; children?: ReactNode }) {
  const form = useForm<Values>({ errors });
  return createElement(FormProvider<Values>, { ...form, children });
}
const inForm = (field: ReactNode, errors?: FieldErrors<Values>) => renderToStaticMarkup(createElement(InForm, { errors }, field));

/** What a screen reader reads with the control of this id: the texts of the elements its aria-describedby names. */
function description(html: string, id: string): string[] {
  const control = new RegExp(`<(input|select|textarea|div)[^>]*\\bid="${id}"[^>]*>`).exec(html)?.[0];
  expect(control, `no control #${id}`).toBeDefined();
  const ids = /aria-describedby="([^"]*)"/.exec(control!)?.[1].split(" ") ?? [];
  return ids.map((ref) => new RegExp(`<p id="${ref}"[^>]*>([^<]*)</p>`).exec(html)?.[1] ?? `(no #${ref})`);
}

describe("Field: the control is described by the hint and the error shown under it", () => {
  const field = (props: { hint?: string; error?: string }) =>
    renderToStaticMarkup(
      createElement(Field, {
        id: "f-x",
        label: "X",
        ...props,
        children: (describedBy: string | undefined) => createElement(Input, { id: "f-x", "aria-describedby": describedBy }),
      }),
    );

  it("names the hint", () => {
    expect(description(field({ hint: "Ticker, e.g. AAPL" }), "f-x")).toEqual(["Ticker, e.g. AAPL"]);
  });

  it("names the error, shown in the hint's place", () => {
    const html = field({ hint: "Ticker, e.g. AAPL", error: "Enter a symbol" });
    expect(description(html, "f-x")).toEqual(["Enter a symbol"]);
    expect(html).not.toContain("Ticker");
  });

  it("names nothing when neither shows", () => {
    expect(field({})).not.toContain("aria-describedby");
  });
});

describe("bound fields: every kind wires its hint and its error to its control", () => {
  const option = createElement("option", { value: "a" }, "A");
  const kinds: [string, keyof Values, (hint: string) => ReactNode][] = [
    ["text", "name", (hint) => createElement(TextField, { name: "name", label: "Name", hint })],
    ["date", "day", (hint) => createElement(DateField, { name: "day", label: "Day", hint })],
    ["select", "kind", (hint) => createElement(SelectField, { name: "kind", label: "Kind", hint, children: option })],
    ["textarea", "note", (hint) => createElement(TextareaField, { name: "note", label: "Note", hint })],
  ];

  it.each(kinds)("%s: the hint", (_, name, make) => {
    expect(description(inForm(make("What to write here")), `f-${name}`)).toEqual(["What to write here"]);
  });

  it.each(kinds)("%s: the error, in the hint's place", (_, name, make) => {
    const html = inForm(make("What to write here"), { [name]: { type: "custom", message: "Not like that" } });
    expect(description(html, `f-${name}`)).toEqual(["Not like that"]);
    expect(html).toMatch(new RegExp(`<(input|select|textarea)[^>]*id="f-${name}"[^>]*aria-invalid="true"`));
  });

  it("a checkbox group: its error", () => {
    const group = createElement(CheckboxGroupField, { name: "tags", label: "Tags", options: [{ value: "a", label: "A" }] });
    expect(inForm(group)).not.toContain("aria-describedby");
    const html = inForm(group, { tags: { type: "custom", message: "Pick one" } });
    expect(html).toMatch(/<div role="group"[^>]*aria-describedby="f-tags-error"/);
    expect(html).toContain('<p id="f-tags-error" role="alert"');
  });
});
