import { PERMISSION_LABELS, toUpstreamFields, type AccountFormValues, type TradingPermission } from "./virtual-account";

/**
 * What an update changes, shown for confirmation before it is sent. Both sides go through `toUpstreamFields`, so
 * the diff is about what the upstream would store (e.g. "same as home" vs a typed copy of the home address is no
 * change), not about how the form was filled in.
 */
export interface DiffLine {
  path: string;
  label: string;
  before: string;
  after: string;
}

const LABELS: Record<string, string> = {
  trading_permissions: "Trading permissions",
  option_level: "Option level",
  commission_code: "Commission code",
  "w8ben_info.first_name": "W-8BEN first name",
  "w8ben_info.middle_name": "W-8BEN middle name",
  "w8ben_info.last_name": "W-8BEN last name",
  "w8ben_info.treaty_country": "Treaty country",
  "w8ben_info.tax_id": "Tax id",
  "w8ben_info.sign_date": "Signature date",
  "china_connect_investor_info.first_name": "China Connect first name",
  "china_connect_investor_info.middle_name": "China Connect middle name",
  "china_connect_investor_info.last_name": "China Connect last name",
  "china_connect_investor_info.id_type": "China Connect ID type",
  "china_connect_investor_info.id_number": "China Connect ID number",
  "china_connect_investor_info.country_of_issuance": "China Connect country of issuance",
};
const ADDRESS_PART: Record<string, string> = {
  country: "country",
  state: "state",
  city: "city",
  street_address: "street",
  postal_code: "postal code",
};

function labelOf(path: string): string {
  if (LABELS[path]) return LABELS[path];
  const m = /^w8ben_info\.(home|mail)_address\.(\w+)$/.exec(path);
  if (m) return `${m[1] === "home" ? "Home" : "Mailing"} address ${ADDRESS_PART[m[2]] ?? m[2]}`;
  return path;
}

function flatten(value: unknown, prefix = "", out: Record<string, string> = {}): Record<string, string> {
  if (Array.isArray(value)) {
    out[prefix] = value.map((p) => PERMISSION_LABELS[p as TradingPermission] ?? String(p)).join(", ");
  } else if (value && typeof value === "object") {
    for (const [k, v] of Object.entries(value)) flatten(v, prefix ? `${prefix}.${k}` : k, out);
  } else if (value !== undefined && value !== null && value !== "") {
    out[prefix] = String(value);
  }
  return out;
}

/** Field-by-field changes from `before` to `after`, in a stable order; empty when nothing changes. */
export function diffAccount(before: AccountFormValues, after: AccountFormValues): DiffLine[] {
  const a = flatten(toUpstreamFields(before));
  const b = flatten(toUpstreamFields(after));
  // Without China Connect trading the details are not sent, and the upstream keeps what it has: not a change.
  if (!Object.keys(b).some((k) => k.startsWith("china_connect_investor_info."))) {
    for (const k of Object.keys(a)) if (k.startsWith("china_connect_investor_info.")) delete a[k];
  }
  const keys = [...new Set([...Object.keys(a), ...Object.keys(b)])];
  const order = (k: string) => {
    const i = Object.keys(LABELS).indexOf(k);
    return i === -1 ? 100 : i;
  };
  return keys
    .filter((k) => (a[k] ?? "") !== (b[k] ?? ""))
    .sort((x, y) => order(x) - order(y) || x.localeCompare(y))
    .map((k) => ({ path: k, label: labelOf(k), before: a[k] ?? "—", after: b[k] ?? "—" }));
}
