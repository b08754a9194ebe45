"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import { useHeardLog, type ChangeNoticeDetail } from "./live-provider";
import { useReadAt } from "./read-at";

/**
 * For a server-rendered page: reads the page again when the live channel announces a change of one of `topics` (made
 * by this instance or another one sharing the database), or, as it arrives, when the tab heard of one since the page
 * was read (`ReadAt`), so it never shows a state that has moved on.
 */
export function RefreshOnChange({ topics }: { topics: string[] }) {
  const router = useRouter();
  const heard = useHeardLog();
  const readAt = useReadAt();
  const key = topics.join(",");
  useEffect(() => {
    const mine = key.split(",");
    if (readAt !== undefined && heard.changedSince(mine, readAt)) router.refresh();
    const onChange = (e: Event) => {
      if ((e as CustomEvent<ChangeNoticeDetail>).detail.topics.some((t) => mine.includes(t))) router.refresh();
    };
    window.addEventListener("brokerdesk:change", onChange);
    return () => window.removeEventListener("brokerdesk:change", onChange);
  }, [router, key, readAt, heard]);
  return null;
}
