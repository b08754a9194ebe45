"use client";
import { useEffect, useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import type { Tone } from "@/components/ui/badge";
import { Button } from "@/components/ui/button";
import { EnumBadge } from "@/components/ui/enum-badge";
import { Mono } from "@/components/ui/mono";
import { Alert } from "@/components/ui/field";
import { Panel } from "@/components/ui/page";
import type { ConnectionStatus, TokenState } from "@/lib/connection";
import type { ActionResult } from "@/lib/errors";
import { formatDateTime } from "@/lib/format";
import { checkTokenNow, confirmSandboxTwoFactor, refreshTokenNow, startToken } from "@/server/actions/connection";

/** UNKNOWN has no tone on purpose: the badge then shows the upstream's raw status as "unknown (RAW)". */
const STATE_TONE: Record<Exclude<TokenState, "UNKNOWN">, Tone> = {
  NORMAL: "green",
  NOT_REQUIRED: "green",
  PENDING: "amber",
  NONE: "slate",
  EXPIRED: "red",
  INVALID: "red",
};
const POLL_MS = 5_000;

export function ConnectionPanel({ initial }: { initial: ConnectionStatus }) {
  const [status, setStatus] = useState(initial);
  const { run: runAction, busy: pending, banner } = useAction();
  const { connection, token } = status;
  const waiting = token.state === "PENDING";

  // While 2FA is pending, ask the upstream every few seconds until it is confirmed, expires or is refused.
  useEffect(() => {
    if (!waiting) return;
    const timer = setInterval(async () => {
      const res = await fetch("/api/connection?check=1", { cache: "no-store" });
      if (res.ok) setStatus((await res.json()) as ConnectionStatus);
    }, POLL_MS);
    return () => clearInterval(timer);
  }, [waiting]);

  function run(task: () => Promise<ActionResult<ConnectionStatus>>, success: string, confirmText?: string) {
    if (confirmText && !window.confirm(confirmText)) return;
    void runAction(task, { success, onSuccess: setStatus });
  }

  const rows: [string, React.ReactNode][] = [
    ["Upstream", connection.kind === "sandbox" ? "Embedded sandbox" : "Broker API"],
    ["Base URL", <Mono key="u">{connection.baseUrl}</Mono>],
    ["App key", <Mono key="k">{connection.appKeyMasked}</Mono>],
    ["Path style", `${connection.pathStyle} (x-version ${connection.version})`],
    ["Signature", connection.algorithm],
  ];

  return (
    <div className="grid max-w-5xl gap-4 lg:grid-cols-2">
      <Panel title="Connection">
        <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1.5 text-sm">
          {rows.map(([k, v]) => (
            <div key={k} className="contents">
              <dt className="text-slate-500">{k}</dt>
              <dd>{v}</dd>
            </div>
          ))}
        </dl>
      </Panel>
      <Panel title="Access token">
        <div className="flex flex-col gap-3 text-sm">
          <FormBanner banner={banner} />
          {status.error ? <Alert>{status.error.userMessage}</Alert> : null}
          <div className="flex items-center gap-2" data-testid="token-state">
            <EnumBadge value={token.state === "UNKNOWN" ? (token.rawStatus ?? "UNKNOWN") : token.state} tones={STATE_TONE} />
            <span className="text-slate-700">{token.message}</span>
          </div>
          {waiting ? (
            <p role="status" className="flex items-center gap-2 text-amber-800">
              <span className="inline-block h-3 w-3 animate-spin rounded-full border-2 border-amber-600 border-t-transparent" aria-hidden />
              Waiting for the two-factor confirmation; this page updates by itself.
            </p>
          ) : null}
          <dl className="grid grid-cols-[8rem_1fr] gap-x-3 gap-y-1 text-xs">
            <dt className="text-slate-500">Expires</dt>
            <dd>{token.expiresAt ? formatDateTime(token.expiresAt) : "—"}</dd>
            <dt className="text-slate-500">Created</dt>
            <dd>
              {token.createdAt ? formatDateTime(token.createdAt) : "—"}
              {token.createdBy ? ` by ${token.createdBy}` : ""}
            </dd>
            <dt className="text-slate-500">Last checked</dt>
            <dd>{token.checkedAt ? formatDateTime(token.checkedAt) : "—"}</dd>
          </dl>
          <div className="flex flex-wrap gap-2">
            <Button
              disabled={pending}
              onClick={() =>
                run(
                  () => startToken({}),
                  "A new token was requested.",
                  token.state === "NORMAL" ? "Start a new token? The current one is replaced once the new one is confirmed." : undefined,
                )
              }
            >
              Start new token
            </Button>
            <Button
              variant="secondary"
              disabled={pending || token.state === "NONE"}
              onClick={() => run(() => checkTokenNow({}), "Token state checked.")}
            >
              Check now
            </Button>
            <Button
              variant="secondary"
              disabled={pending || token.state !== "NORMAL"}
              onClick={() => run(() => refreshTokenNow({}), "Token refreshed.")}
            >
              Refresh
            </Button>
            {connection.kind === "sandbox" && waiting ? (
              <Button
                variant="secondary"
                disabled={pending}
                onClick={() => run(() => confirmSandboxTwoFactor({}), "Confirmed in the sandbox.")}
              >
                Confirm 2FA (sandbox)
              </Button>
            ) : null}
          </div>
        </div>
      </Panel>
    </div>
  );
}
