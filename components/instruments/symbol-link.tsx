import { instrumentHref, occRoot } from "@/lib/instruments";

/**
 * A symbol wherever the desk shows one, linking to its instrument page (an option to its underlying's page: see
 * `instrumentHref`). A plain anchor: rows of long lists render many and prefetch none; the app's router is not
 * needed to open a page. Without a known market it is the symbol as text.
 */
export function SymbolLink({
  market,
  symbol,
  className = "font-semibold text-blue-800 hover:underline",
  newTab = false,
  children,
}: {
  market: string | null | undefined;
  symbol: string | null | undefined;
  className?: string;
  /** In a new tab: from a form being filled in (the order ticket), which a navigation would leave. */
  newTab?: boolean;
  children?: React.ReactNode;
}) {
  if (!symbol) return <>—</>;
  const href = instrumentHref(market, symbol);
  const text = children ?? symbol;
  if (!href) return <span>{text}</span>;
  const root = occRoot(symbol);
  return (
    <a
      href={href}
      className={className}
      data-symbol-link
      title={root ? `Underlying ${root} of ${symbol}` : undefined}
      {...(newTab ? { target: "_blank", rel: "noopener" } : {})}
    >
      {text}
    </a>
  );
}
