"use client";
import { useQuery } from "@tanstack/react-query";
import { useState, type ReactNode } from "react";
import { fetchJson } from "@/components/data-table/fetch-json";
import { Badge } from "@/components/ui/badge";
import { DetailPanel } from "@/components/ui/panel-state";
import { enumLabel } from "@/lib/enums";
import { formatDate, formatDateTime } from "@/lib/format";
import { ID_TYPE_LABELS } from "@/lib/schemas/virtual-account";
import { ownerName, type AccountView, type AddressView } from "@/lib/schemas/virtual-account-view";
import { commissionLabel, PermissionList, StatusBadge } from "./labels";
import { accountKeys, accountUrls } from "./query-keys";
import { RevealPii, type RevealedPii } from "./reveal-pii";

const Item = ({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) => (
  // min-w-0 and wrapping: a long value (a 64-character name, an address) stays in its own cell.
  <div className={`min-w-0 ${wide ? "col-span-2" : ""}`}>
    <dt className="text-xs text-slate-500">{label}</dt>
    <dd className="text-sm break-words">{children || <span className="text-slate-400">—</span>}</dd>
  </div>
);

const addressText = (a?: AddressView) =>
  a ? [a.street_address, a.city, a.state, a.postal_code, a.country].filter(Boolean).join(", ") : "";

export function useAccountOverview(accountId: string) {
  return useQuery({
    queryKey: accountKeys.overview(accountId),
    queryFn: ({ signal }) => fetchJson<AccountView>(accountUrls.overview(accountId), signal),
  });
}

/** Status, permissions, option level, commission code, W-8BEN (masked unless the viewer may see it) and China Connect. */
export function OverviewPanel({ accountId, canReveal }: { accountId: string; canReveal: boolean }) {
  const query = useAccountOverview(accountId);
  const [revealed, setRevealed] = useState<RevealedPii>();
  return (
    <DetailPanel title="Overview" testId="overview-panel" query={query}>
      {(a) => {
        const w = a.w8ben_info;
        const cn = a.china_connect_investor_info;
        const pii = revealed ?? {
          tax_id: w?.tax_id,
          home_address: w?.home_address,
          mail_address: w?.mail_address,
          china_connect_id_number: cn?.id_number,
        };
        return (
          <div className="flex flex-col gap-4">
            <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
              <Item label="Status">
                <StatusBadge status={a.account_status} />
              </Item>
              <Item label="Type">{a.account_type}</Item>
              <Item label="Option level">{a.option_level}</Item>
              <Item label="Commission">
                <span className="break-all" title={a.commission_code ?? undefined}>
                  {commissionLabel(a.commission_code)}
                </span>
              </Item>
              <Item label="Trading permissions" wide>
                <PermissionList permissions={a.trading_permissions} />
              </Item>
              <Item label="Master account">
                <span className="font-mono">{a.belong_account_number ?? a.belong_account_id}</span>
              </Item>
              <Item label="External number">
                <span className="font-mono">{a.external_account_number}</span>
              </Item>
              <Item label="Opened">{a.create_time ? formatDateTime(a.create_time) : ""}</Item>
              <Item label="Last updated">{a.update_time ? formatDateTime(a.update_time) : ""}</Item>
            </dl>
            <div className="border-t border-slate-100 pt-3" data-testid="w8ben">
              <div className="mb-2 flex flex-wrap items-center gap-2">
                <h3 className="text-xs font-semibold tracking-wide text-slate-500 uppercase">W-8BEN</h3>
                {a.masked && !revealed ? <Badge tone="amber">Masked</Badge> : null}
                {revealed ? <Badge tone="violet">Revealed · logged in the audit trail</Badge> : null}
                {a.masked && !revealed && canReveal ? <RevealPii accountId={a.account_id} onRevealed={setRevealed} /> : null}
              </div>
              {w ? (
                <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
                  <Item label="Name">{ownerName(w)}</Item>
                  <Item label="Treaty country">{w.treaty_country}</Item>
                  <Item label="Tax id">
                    <span className="font-mono" data-testid="tax-id">
                      {pii.tax_id}
                    </span>
                  </Item>
                  <Item label="Signed">{w.sign_date ? formatDate(w.sign_date) : ""}</Item>
                  <Item label="Home address" wide>
                    <span data-testid="home-address">{addressText(pii.home_address)}</span>
                  </Item>
                  <Item label="Mailing address" wide>
                    {addressText(pii.mail_address)}
                  </Item>
                </dl>
              ) : (
                <p className="text-sm text-slate-500">No W-8BEN on file.</p>
              )}
            </div>
            {cn ? (
              <div className="border-t border-slate-100 pt-3">
                <h3 className="mb-2 text-xs font-semibold tracking-wide text-slate-500 uppercase">China Connect investor</h3>
                <dl className="grid grid-cols-2 gap-3 md:grid-cols-4">
                  <Item label="Name">{[cn.first_name, cn.middle_name, cn.last_name].filter(Boolean).join(" ")}</Item>
                  <Item label="ID type">{cn.id_type ? enumLabel(ID_TYPE_LABELS, cn.id_type) : ""}</Item>
                  <Item label="ID number">
                    <span className="font-mono">{pii.china_connect_id_number}</span>
                  </Item>
                  <Item label="Country of issuance">{cn.country_of_issuance}</Item>
                </dl>
              </div>
            ) : null}
          </div>
        );
      }}
    </DetailPanel>
  );
}
