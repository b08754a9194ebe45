"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useHeardLog, type ChangeNoticeDetail } from "./live-provider";

/**
 * For a server-rendered page read from `readAt` on (the server's clock, server/notices/read-at.ts): reads the page
 * again when the live channel announces a change of one of `topics` (made by this instance or another one sharing
 * the database), or, as it arrives, when the tab heard of one since that read, so it never shows a state that has
 * moved on.
 */
export function RefreshOnChange({ topics, readAt }: { topics: string[]; readAt: number }) {
  const router = useRouter();
  const heard = useHeardLog();
  const key = topics.join(",");
  useEffect(() => {
    const mine = key.split(",");
    if (heard.changedSince(mine, readAt)) router.refresh();
    const onChange = (e: Event) => {
      if ((e as CustomEvent<ChangeNoticeDetail>).detail.topics.some((t) => mine.includes(t))) router.refresh();
    };
    window.addEventListener("brokerdesk:change", onChange);
    return () => window.removeEventListener("brokerdesk:change", onChange);
  }, [router, key, readAt, heard]);
  return null;
}
