"use client";
import { createContext, useContext, type ReactNode } from "react";

const ReadAtContext = createContext<number | undefined>(undefined);

/**
 * Below it, the data the server handed the page was read from `at` on (the server's clock, server/notices/read-at.ts):
 * the desk's layout and each page that starts components from server data say so.
 */
export function ReadAt({ at, children }: { at: number; children: ReactNode }) {
  return <ReadAtContext.Provider value={at}>{children}</ReadAtContext.Provider>;
}

/**
 * When the server data a component starts from was read: its query's `initialDataUpdatedAt`, so that a change the tab
 * heard of since reads it again (components/live/live-provider.tsx); a server-rendered page's `RefreshOnChange`.
 */
export function useReadAt(): number | undefined {
  return useContext(ReadAtContext);
}
