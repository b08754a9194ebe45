/* eslint-disable react/no-children-prop -- no JSX in a .ts test: children are given as props (a Field's function child too) */
import { QueryClient, QueryClientProvider } from "@tanstack/react-query";
import { createElement, type ReactNode } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { FormProvider, useForm, type FieldErrors } from "react-hook-form";
import { describe, expect, it } from "vitest";
import { fieldId, formFields } from "@/components/form/fields";
import { MovementAccountPicker } from "@/components/movement-forms/account-picker";
import { TicketAccountPicker } from "@/components/order-ticket/ticket-account";
import { Field, FieldError, Input } from "@/components/ui/field";
import { CURRENCIES } from "@/lib/broker-enums";

type Values = { name: string; day: string; kind: string; note: string; tags: string[]; tp: boolean; sl: boolean; account_id: string };
const { TextField, DateField, SelectField, CurrencyField, TextareaField, CheckboxField, CheckboxGroupField } = formFields<Values>();

/** Bound fields rendered in a form holding `errors` (as after a failed submit). */
function InForm({ errors, children }: { errors?: FieldErrors<Values>; children?: ReactNode }) {
  const form = useForm<Values>({ errors });
  return createElement(FormProvider<Values>, { ...form, children });
}
const inForm = (field: ReactNode, errors?: FieldErrors<Values>) => renderToStaticMarkup(createElement(InForm, { errors }, field));

/** What a screen reader reads with the control of this id: the texts of the elements its aria-describedby names. */
function description(html: string, id: string): string[] {
  return describedBy(html, new RegExp(`<(input|select|textarea|div)[^>]*\\bid="${id}"[^>]*>`), `#${id}`);
}

/** The same for the first control `tag` matches (a button has no id). */
function describedBy(html: string, tag: RegExp, name: string): string[] {
  const control = tag.exec(html)?.[0];
  expect(control, `no control ${name}`).toBeDefined();
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

describe("errors shown apart from a Field: each control they concern names them", () => {
  // Two checkboxes one rule ties together (the ticket's take-profit and stop-loss): its error at the first's name,
  // shown under both.
  const pair = (error?: string) =>
    createElement(
      "div",
      null,
      createElement(CheckboxField, { name: "tp", label: "Take profit", errorOf: "tp" }),
      createElement(CheckboxField, { name: "sl", label: "Stop loss", errorOf: "tp" }),
      createElement(FieldError, { id: fieldId("tp"), error }),
    );

  it("a pair of checkboxes: both are described by the pair's error, and invalid with it", () => {
    const clean = inForm(pair());
    expect(clean).not.toContain("aria-describedby");
    expect(clean).not.toContain("aria-invalid");
    const html = inForm(pair("Add one or both"), { tp: { type: "custom", message: "Add one or both" } });
    expect(description(html, "f-tp")).toEqual(["Add one or both"]);
    expect(description(html, "f-sl")).toEqual(["Add one or both"]);
    expect(html).toMatch(/<input[^>]*id="f-sl"[^>]*aria-invalid="true"/);
    expect(html).toContain('<p id="f-tp-error" role="alert"');
  });

  /** An account picker with its account picked, in a form holding an error on its field. */
  const picked = (picker: ReactNode, message?: string) =>
    renderToStaticMarkup(
      createElement(
        QueryClientProvider,
        { client: new QueryClient() },
        createElement(InForm, { errors: message ? { account_id: { type: "custom", message } } : undefined }, picker),
      ),
    );
  const change = /<button[^>]*>Change<\/button>/;
  const pickers: [string, ReactNode][] = [
    [
      "the movement forms'",
      createElement(MovementAccountPicker, {
        name: "account_id",
        label: "Virtual account",
        scope: "virtual",
        account: { account_id: "a1", account_number: "VBD1000001", name: "Emma Chen", account_status: "ACTIVE", is_master: false },
        onAccount: () => {},
      }),
    ],
    [
      "the order ticket's",
      createElement(TicketAccountPicker, {
        account: {
          account_id: "a1",
          account_number: "VBD1000001",
          account_type: "MARGIN",
          account_status: "FROZEN",
          option_level: "",
          trading_permissions: [],
          buying_power: { USD: "100.00" },
          held: {},
        },
        onAccount: () => {},
      }),
    ],
  ];

  it.each(pickers)("%s account picker, an account picked: its Change button is described by the field's error", (_, picker) => {
    expect(picked(picker).match(change)?.[0]).not.toContain("aria-describedby");
    const html = picked(picker, "Account VBD1000001 is FROZEN.");
    expect(describedBy(html, change, "Change")).toEqual(["Account VBD1000001 is FROZEN."]);
    expect(html).toContain('<p id="f-account_id-error" role="alert"');
  });
});

describe("CurrencyField: a select of the desk's currencies", () => {
  const options = (html: string) => [...html.matchAll(/<option value="([^"]*)">([^<]*)<\/option>/g)].map((m) => [m[1], m[2]]);

  it("offers every currency in the desk's order, labelled as its code, under the field's label", () => {
    const html = inForm(createElement(CurrencyField, { name: "kind", label: "Sell", required: true }));
    expect(options(html)).toEqual(CURRENCIES.map((c) => [c, c]));
    expect(html).toContain('<select id="f-kind"');
    expect(html).toContain(">Sell<");
  });

  it("puts an empty choice first where a form allows none", () => {
    const html = inForm(createElement(CurrencyField, { name: "kind", label: "Currency", any: "Any" }));
    expect(options(html)).toEqual([["", "Any"], ...CURRENCIES.map((c) => [c, c])]);
  });
});
