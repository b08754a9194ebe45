"use client";
import { useQueryClient } from "@tanstack/react-query";
import { useRouter } from "next/navigation";
import { FormProvider } from "react-hook-form";
import { formFields } from "@/components/form/fields";
import { FormBanner } from "@/components/form/form-banner";
import { useActionForm } from "@/components/form/use-action-form";
import { Button } from "@/components/ui/button";
import { Panel } from "@/components/ui/page";
import { orderLookupSchema, type OrderLookupInput } from "@/lib/schemas/order-lookup";
import { findOrderAtUpstream } from "@/server/actions/orders";

const { TextField } = formFields<OrderLookupInput>();

/**
 * The order a customer calls about, which the desk's books may lack (placed in their own app, not yet swept): the
 * books first, then the upstream for the account they name. Found, its page opens.
 */
export function OrderLookupForm({ id, account }: { id: string; account: string }) {
  const router = useRouter();
  const queryClient = useQueryClient();
  const { form, onSubmit, banner, busy } = useActionForm({
    schema: orderLookupSchema,
    defaultValues: { id, account },
    action: findOrderAtUpstream,
    success: (found) =>
      found.source === "upstream" ? "Found at the upstream and added to the desk's books: opening it…" : "In the desk's books: opening it…",
    onSuccess: async (found) => {
      // The header search's earlier "not in the books" answer is out of date now.
      if (found.source === "upstream") await queryClient.invalidateQueries({ queryKey: ["desk-search"] });
      router.push(`/orders/${found.id}`);
    },
  });
  return (
    <Panel title="Order and account">
      <FormProvider {...form}>
        <form onSubmit={onSubmit} className="flex flex-col gap-3" noValidate>
          <p className="text-sm text-slate-600">
            The desk&apos;s books are asked first. An order they lack (placed in the customer&apos;s own app since the account was last
            checked) is read from the upstream, which answers an order only with its account: its open orders and its order history of the
            last 6 months.
          </p>
          <FormBanner banner={banner} />
          <TextField name="id" label="Order id or client order id" required autoComplete="off" spellCheck={false} autoFocus={!id} />
          <TextField
            name="account"
            label="Account number"
            required
            autoComplete="off"
            spellCheck={false}
            autoFocus={!!id}
            hint="The number the customer reads out (or the account id)."
          />
          <div>
            <Button type="submit" disabled={busy}>
              {busy ? "Looking…" : "Find the order"}
            </Button>
          </div>
        </form>
      </FormProvider>
    </Panel>
  );
}
