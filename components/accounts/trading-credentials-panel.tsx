"use client";
import { useState } from "react";
import { FormBanner } from "@/components/form/form-banner";
import { useAction } from "@/components/form/use-action";
import { Button } from "@/components/ui/button";
import { Alert } from "@/components/ui/field";
import type { IssuedTradingCredential, TradingCredentialView } from "@/lib/schemas/trading-credentials";
import { issueTradingCredentialAction, revokeTradingCredentialAction } from "@/server/actions/accounts";

/**
 * Trading API access for the account holder's own app: the account's app keys, issue a new one (its secret is
 * shown here once and kept nowhere: a reload forgets it), revoke one. Operations only (accounts:write).
 */
export function TradingCredentialsPanel({
  accountId,
  initial,
  unavailable,
}: {
  accountId: string;
  initial: TradingCredentialView[] | null;
  unavailable?: string;
}) {
  const [items, setItems] = useState<TradingCredentialView[]>(initial ?? []);
  const [issued, setIssued] = useState<IssuedTradingCredential>();
  const { run, busy, banner } = useAction();

  const issue = () =>
    run(() => issueTradingCredentialAction({ account_id: accountId }), {
      success: "Credentials issued.",
      onSuccess: (c) => {
        setIssued(c);
        const { app_secret: _secret, ...view } = c;
        setItems((list) => [view, ...list]);
      },
    });
  const revoke = (appKey: string) => {
    if (!window.confirm(`Revoke the key ${appKey}? Every app that signs with it is refused from then on; this cannot be undone.`)) return;
    void run(() => revokeTradingCredentialAction({ account_id: accountId, app_key: appKey }), {
      success: "Credentials revoked.",
      onSuccess: (c) => {
        setItems((list) => list.map((x) => (x.app_key === c.app_key ? c : x)));
        if (issued?.app_key === c.app_key) setIssued(undefined);
      },
    });
  };

  return (
    <section
      className="mt-3 rounded border border-slate-200 bg-white"
      aria-label="Trading API access"
      data-testid="trading-credentials-panel"
    >
      <header className="flex items-center justify-between border-b border-slate-200 px-3 py-2">
        <h2 className="text-sm font-semibold text-slate-800">Trading API access</h2>
        {unavailable ? null : (
          <Button size="sm" variant="secondary" onClick={() => void issue()} disabled={busy}>
            Issue credentials
          </Button>
        )}
      </header>
      <div className="flex flex-col gap-2 p-3 text-sm">
        {unavailable ? <Alert tone="info">{unavailable}</Alert> : null}
        <FormBanner banner={banner} />
        {issued ? (
          <div className="rounded border border-amber-300 bg-amber-50 p-2" data-testid="issued-credentials">
            <p className="font-medium">Give these to the account holder now: the secret is shown once and not kept by the desk.</p>
            <dl className="mt-1 grid grid-cols-[auto_1fr] gap-x-3 font-mono text-xs">
              <dt>App key</dt>
              <dd className="break-all">{issued.app_key}</dd>
              <dt>App secret</dt>
              <dd className="break-all">{issued.app_secret}</dd>
            </dl>
            <Button className="mt-2" size="sm" variant="ghost" onClick={() => setIssued(undefined)}>
              Done, hide the secret
            </Button>
          </div>
        ) : null}
        {items.length === 0 && !unavailable ? (
          <p className="text-slate-500">No Trading API credentials have been issued for this account.</p>
        ) : null}
        {items.length ? (
          <table className="w-full text-left text-xs">
            <thead className="text-slate-500">
              <tr>
                <th className="py-1 font-medium">App key</th>
                <th className="py-1 font-medium">Status</th>
                <th className="py-1 font-medium">Issued</th>
                <th />
              </tr>
            </thead>
            <tbody>
              {items.map((c) => (
                <tr key={c.app_key} className="border-t border-slate-100">
                  <td className="py-1 font-mono">{c.app_key}</td>
                  <td className="py-1">{c.status}</td>
                  <td className="py-1 tabular-nums">{c.create_time.replace("T", " ").slice(0, 16)}</td>
                  <td className="py-1 text-right">
                    {c.status === "ACTIVE" ? (
                      <Button size="sm" variant="ghost" disabled={busy} onClick={() => revoke(c.app_key)}>
                        Revoke
                      </Button>
                    ) : null}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        ) : null}
      </div>
    </section>
  );
}
