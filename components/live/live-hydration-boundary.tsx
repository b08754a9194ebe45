"use client";
import { HydrationBoundary, useQueryClient, type DehydratedState } from "@tanstack/react-query";
import { useEffect, type ReactNode } from "react";
import { topicsOfQueryRoot } from "@/lib/stream-health";
import { useHeardLog } from "./live-provider";

/**
 * Data a page read on the server (`readAt`, the server's clock as the request began to read), handed to the tab's
 * query client. A notice heard after that read and before the data is in the tab (a page still on its way, or
 * waiting to hydrate) found no query to make stale; each query whose topics the tab has heard change since `readAt`
 * reads again once here, so the page never settles on a read that predates a change already announced.
 */
export function LiveHydrationBoundary({ state, readAt, children }: { state: DehydratedState; readAt: number; children: ReactNode }) {
  const client = useQueryClient();
  const heard = useHeardLog();
  useEffect(() => {
    for (const { queryKey } of state.queries) {
      if (heard.changedSince(topicsOfQueryRoot(String(queryKey[0])), readAt)) {
        void client.invalidateQueries({ queryKey, exact: true });
      }
    }
  }, [state, readAt, client, heard]);
  return <HydrationBoundary state={state}>{children}</HydrationBoundary>;
}
