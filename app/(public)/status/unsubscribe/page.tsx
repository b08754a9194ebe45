import type { Metadata } from "next";
import { mailLinkPage } from "@/app/(public)/status/mail-link";

export const metadata: Metadata = { title: "Unsubscribe" };
export const dynamic = "force-dynamic";

/** A status mail's unsubscribe link. */
export default mailLinkPage("unsubscribe");
