"use client";
import { usePathname, useSearchParams } from "next/navigation";
import { useCallback, useMemo } from "react";

/**
 * Table state kept in the URL (shareable, survives reload, Back works). Parsing and serialising are the
 * resource's own (one params schema shared with the page and the route handlers); this hook only reads the
 * current URL and writes a new one with the History API, which Next keeps in sync with useSearchParams
 * without a server round trip: the data is refetched by TanStack Query from the GET route handler.
 */
export function useUrlState<S extends object>(parse: (p: URLSearchParams) => S, toQuery: (s: Partial<S>) => string) {
  const searchParams = useSearchParams();
  const pathname = usePathname();
  const state = useMemo(() => parse(new URLSearchParams(searchParams.toString())), [parse, searchParams]);

  const setState = useCallback(
    (patch: Partial<S>, opts: { history?: "push" | "replace" } = {}) => {
      const url = `${pathname}${toQuery({ ...state, ...patch })}`;
      if (opts.history === "replace") window.history.replaceState(null, "", url);
      else window.history.pushState(null, "", url);
    },
    [pathname, state, toQuery],
  );
  return [state, setState] as const;
}
