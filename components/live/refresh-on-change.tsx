"use client";
import { useRouter } from "next/navigation";
import { useEffect } from "react";
import type { ChangeNoticeDetail } from "./live-provider";

/**
 * For a server-rendered page: reads the page again when the live channel announces a change of `topic` (made by
 * this instance or another one sharing the database), so it never shows a state that has moved on.
 */
export function RefreshOnChange({ topic }: { topic: string }) {
  const router = useRouter();
  useEffect(() => {
    const onChange = (e: Event) => {
      if ((e as CustomEvent<ChangeNoticeDetail>).detail.topics.includes(topic)) router.refresh();
    };
    window.addEventListener("brokerdesk:change", onChange);
    return () => window.removeEventListener("brokerdesk:change", onChange);
  }, [router, topic]);
  return null;
}
