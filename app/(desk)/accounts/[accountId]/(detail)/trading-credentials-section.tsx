import "server-only";
import { sandboxControl } from "@/server/sandbox-control";
import { TradingCredentialsPanel } from "@/components/accounts/trading-credentials-panel";

/** Server part of the Trading API panel: the account's app keys (never secrets), read once for the page. */
export async function TradingCredentialsSection({ accountId }: { accountId: string }) {
  const control = sandboxControl();
  if (!control) {
    return (
      <TradingCredentialsPanel
        accountId={accountId}
        initial={null}
        unavailable="Trading API credentials are issued in the upstream's portal, not from the desk."
      />
    );
  }
  const initial = await control.listTradingCredentials(accountId).catch(() => null);
  return (
    <TradingCredentialsPanel
      accountId={accountId}
      initial={initial}
      unavailable={initial === null ? "The account's Trading API credentials could not be read; reload to try again." : undefined}
    />
  );
}
