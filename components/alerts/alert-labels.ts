import { listResource } from "@/components/data-table/list-resource";
import type { Tone } from "@/components/ui/badge";
import { alertListParams, type AlertListParams, type AlertStatus } from "@/lib/schemas/surveillance";

export const ALERT_STATUS_TONES: Record<AlertStatus, Tone> = { open: "amber", cleared: "green", escalated: "red" };

/** Query keys under the live topic's root ("alerts"): a new alert's notice refetches the queue in place. */
export const alertList = listResource<AlertListParams>("alerts", "/api/alerts", alertListParams);
