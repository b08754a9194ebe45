import { Alert } from "@/components/ui/field";
import type { Banner } from "./action-feedback";

/** The one place a form (or an action panel) shows the outcome of its action. */
export function FormBanner({ banner }: { banner?: Banner }) {
  return banner ? <Alert tone={banner.tone}>{banner.text}</Alert> : null;
}
