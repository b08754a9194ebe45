import type { Metadata } from "next";
import { mailLinkPage } from "@/app/(public)/status/mail-link";

export const metadata: Metadata = { title: "Confirm subscription" };
export const dynamic = "force-dynamic";

/** A status mail's confirm link. */
export default mailLinkPage("confirm");
