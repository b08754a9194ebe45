import { dehydrate, HydrationBoundary, type QueryClient } from "@tanstack/react-query";
import type { ReactNode } from "react";
import { PageHeader } from "@/components/ui/page";
import { makeQueryClient } from "./query-client";

/**
 * A listing page's frame: its header, and its first page read on the server into a fresh query client whose data
 * the client table takes over under the same keys (`prefetch` names them). A failed prefetch is not fatal: the
 * table reads again in the browser and shows the error with a Retry.
 */
export async function ListPage({
  title,
  description,
  actions,
  prefetch,
  children,
}: {
  title: string;
  description: ReactNode;
  actions?: ReactNode;
  prefetch: (client: QueryClient) => Promise<unknown>;
  children: ReactNode;
}) {
  const client = makeQueryClient();
  await prefetch(client);
  return (
    <>
      <PageHeader title={title} description={description} actions={actions} />
      <HydrationBoundary state={dehydrate(client)}>{children}</HydrationBoundary>
    </>
  );
}
