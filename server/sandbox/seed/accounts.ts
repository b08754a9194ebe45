import "server-only";
import type { Tx } from "@/server/db/engine";
import { createVirtualAccount, updateVirtualAccount } from "../accounts";
import { convert } from "../fx";
import { idFrom } from "../ids";
import { lockCash, postCash, postPosition } from "../ledger";
import { Decimal } from "../money";
import { submitMovement } from "../movements";
import type { MovementKind } from "../requests";
import { expirations, occSymbol, OPTION_UNDERLYINGS, strikesFor } from "./catalog";

/**
 * Forty virtual accounts with a few months of history, all posted through the same account, movement and ledger
 * functions the API uses, with back-dated times. Everything is derived from the account index: reruns are identical.
 */
const FIRST = [
  "Olivia",
  "Liam",
  "Emma",
  "Noah",
  "Ava",
  "Wei",
  "Mei",
  "Hiro",
  "Sofia",
  "Lucas",
  "Chen",
  "Aarav",
  "Isla",
  "Mateo",
  "Yuki",
  "Zara",
  "Ethan",
  "Lina",
  "Omar",
  "Grace",
];
const LAST = [
  "Chan",
  "Wong",
  "Smith",
  "Garcia",
  "Tanaka",
  "Lee",
  "Patel",
  "Müller",
  "Rossi",
  "Kim",
  "Nguyen",
  "Silva",
  "Cohen",
  "Li",
  "Brown",
  "Lam",
  "Ho",
  "Martin",
  "Zhang",
  "Khan",
];
const COUNTRIES = ["HK", "SG", "GB", "JP", "AU", "CA", "DE", "FR"];
const US_PICKS = [
  "AAPL",
  "MSFT",
  "NVDA",
  "AMZN",
  "GOOGL",
  "META",
  "TSLA",
  "JPM",
  "V",
  "KO",
  "PEP",
  "DIS",
  "NFLX",
  "AMD",
  "INTC",
  "XOM",
  "SPY",
  "QQQ",
  "IWM",
  "VTI",
  "GLD",
  "TLT",
];
const HK_PICKS: [string, number][] = [
  ["00700", 100],
  ["09988", 200],
  ["00005", 400],
  ["02800", 1000],
];
const CN_PICKS = ["600519", "601318", "510300"];
const STATUS_PLAN: Record<number, string> = {
  5: "SUSPENDED",
  17: "SUSPENDED",
  8: "RESTRICTED",
  23: "RESTRICTED",
  11: "FROZEN",
  29: "FROZEN",
  14: "CLOSED",
  35: "CLOSED",
  38: "CREATED",
  39: "CREATED",
};
export const SEED_ACCOUNTS = 40;

const DAY = 86_400_000;
export const seedAccountId = (i: number) => idFrom(`seed-account:${i}`);

export async function seedAccounts(tx: Tx, masterId: string, anchor: Date, prices: Map<string, string>): Promise<void> {
  const created = (i: number) => new Date(anchor.getTime() - (130 - i * 2) * DAY + 9 * 3_600_000 + i * 60_000);
  // Every back-dated event stays before the anchor (the seed day), so history never lies in the future.
  const at = (i: number, days: number) =>
    new Date(Math.min(created(i).getTime() + days * DAY, anchor.getTime() - DAY + i * 60_000 + days * 1000));
  let seq = 0;
  const move = (kind: MovementKind, accountId: string, payload: Record<string, string>, when: Date) => {
    const crid = `seed-${kind.toLowerCase().replace(/_/g, "-")}-${(seq += 1)}`;
    return submitMovement(
      tx,
      { kind, clientRequestId: crid, accountId, body: { client_request_id: crid, ...payload }, payload, id: idFrom(`req:${crid}`) },
      when,
    );
  };
  const fund = (i: number, currency: string, amount: string, days: number) =>
    move("INSTANT_FUNDING", seedAccountId(i), { account_id: seedAccountId(i), type: "DEPOSIT", currency, amount }, at(i, days));

  // The omnibus master account's own capital.
  const t0 = new Date(anchor.getTime() - 140 * DAY);
  await lockCash(
    tx,
    [
      [masterId, "USD"],
      [masterId, "HKD"],
      [masterId, "CNH"],
    ],
    t0,
  );
  for (const [currency, amount] of [
    ["USD", "50000000.00"],
    ["HKD", "200000000.00"],
    ["CNH", "100000000.00"],
  ]) {
    await postCash(
      tx,
      {
        accountId: masterId,
        currency,
        amount,
        activity: { key: `seed:capital:${currency}`, type: "DEPOSIT", subType: "WIRE_IN", description: "Firm capital" },
      },
      t0,
    );
  }

  const usHeld = (i: number) => [...new Set([US_PICKS[i % 22], US_PICKS[(i * 3 + 5) % 22], US_PICKS[(i * 7 + 11) % 22]])];
  const hasHk = (i: number) => i % 2 === 0;
  const hasCn = (i: number) => i % 5 === 0;
  const hasOptions = (i: number) => i % 4 === 1;
  const funded = (i: number) => !["CLOSED", "CREATED"].includes(STATUS_PLAN[i] ?? "");

  for (let i = 0; i < SEED_ACCOUNTS; i += 1) {
    const first = FIRST[i % 20];
    const last = LAST[(i * 7) % 20];
    const country = COUNTRIES[i % COUNTRIES.length];
    const address = {
      country,
      state: "",
      city: `City ${i % 9}`,
      street_address: `${10 + i} Harbour Road`,
      postal_code: String(10000 + i * 37),
    };
    const permissions = [
      "US_STOCK_NORMAL",
      ...(hasHk(i) ? ["HK_STOCK_NORMAL"] : []),
      ...(hasCn(i) ? ["CN_STOCK_NORMAL"] : []),
      ...(hasOptions(i) ? ["US_OPTION_NORMAL"] : []),
    ];
    const crid = `seed-account-${i}`;
    await createVirtualAccount(
      tx,
      {
        client_request_id: crid,
        belong_account_id: masterId,
        external_account_number: String(1000001 + i),
        account_type: i % 3 === 0 ? "CASH" : "MARGIN",
        trading_permissions: permissions,
        ...(hasOptions(i) ? { option_level: `LV${(i % 3) + 1}` } : {}),
        commission_code: `COMMISSION_GROUP_${(i % 5) + 1}`,
        w8ben_info: {
          treaty_country: country,
          tax_id: `TX${String(700000 + i * 131)}`,
          sign_date: created(i).toISOString().slice(0, 10),
          first_name: first,
          last_name: last,
          middle_name: i % 4 === 0 ? "J" : "",
          home_address: address,
          mail_address: address,
        },
        ...(hasCn(i)
          ? {
              china_connect_investor_info: {
                first_name: first,
                last_name: last,
                id_type: "PASSPORT",
                id_number: `P${9000000 + i}`,
                country_of_issuance: country,
              },
            }
          : {}),
      },
      created(i),
      seedAccountId(i),
    );
    if (!funded(i)) continue;

    await fund(i, "USD", new Decimal(10_000 + ((i * 7919) % 240_000)).toFixed(2), 1);
    if (hasHk(i)) await fund(i, "HKD", new Decimal(50_000 + i * 1_000).toFixed(2), 1);
    if (hasCn(i)) await fund(i, "CNH", "30000.00", 1);

    // Securities brought in from another broker (ACATS-style transfers in).
    const transferIn = async (type: string, market: string, symbol: string, currency: string, quantity: number, cost: Decimal) =>
      postPosition(
        tx,
        {
          accountId: seedAccountId(i),
          instrumentType: type,
          market,
          symbol,
          currency,
          quantity,
          price: cost.toDecimalPlaces(4),
          activity: {
            key: `seed:acats:${i}:${symbol}`,
            type: "TRANSFER",
            subType: "ACATS_IN",
            description: "Transfer in from previous broker",
          },
        },
        at(i, 2),
      );
    for (const [k, symbol] of usHeld(i).entries()) {
      await transferIn(
        "EQUITY",
        "US",
        symbol,
        "USD",
        10 + ((i + k) % 7) * 5,
        new Decimal(prices.get(`US:${symbol}`)!).times(0.9 + k * 0.05),
      );
    }
    if (hasHk(i)) {
      const [symbol, lot] = HK_PICKS[i % HK_PICKS.length];
      await transferIn("EQUITY", "HK", symbol, "HKD", lot * (1 + (i % 3)), new Decimal(prices.get(`HK:${symbol}`)!).times(0.95));
    }
    if (hasCn(i))
      await transferIn("EQUITY", "CN", CN_PICKS[i % 3], "CNH", 100, new Decimal(prices.get(`CN:${CN_PICKS[i % 3]}`)!).times(0.97));
    if (hasOptions(i)) {
      const root = OPTION_UNDERLYINGS[i % 4];
      const spot = prices.get(`US:${root}`)!;
      const symbol = occSymbol(root, expirations(anchor)[0], i % 2 ? "CALL" : "PUT", strikesFor(spot)[2]);
      await transferIn("OPTION", "US", symbol, "USD", 1 + (i % 3), new Decimal(spot).times(0.015));
    }

    // Monthly credit interest, dividends with withholding tax, the odd ADR fee.
    for (let m = 1; m <= 3; m += 1) {
      const when = at(i, 30 * m);
      if (when.getTime() >= anchor.getTime() - DAY + i * 60_000) break;
      const key = `seed:${i}:m${m}`;
      await recordMonthly(tx, seedAccountId(i), key, when, i, usHeld(i)[0], prices);
    }
  }

  for (let i = 0; i < SEED_ACCOUNTS - 1; i += 1) {
    const [a, b] = [seedAccountId(i), seedAccountId(i + 1)];
    if (!funded(i) || !funded(i + 1)) continue;
    if (i % 4 === 2)
      await move(
        "CASH_JOURNAL",
        a,
        { from_account: a, to_account: b, currency: "USD", amount: new Decimal(500 + i * 10).toFixed(2) },
        at(i + 1, 10),
      );
    if (i % 8 === 3)
      await move(
        "POSITION_JOURNAL",
        a,
        { from_account: a, to_account: b, instrument_type: "EQUITY", market: "US", symbol: usHeld(i)[0], quantity: "5" },
        at(i + 1, 12),
      );
    if (i % 5 === 0 && hasHk(i)) {
      const toAmount = convert("1000", "USD", "HKD").toFixed(2);
      await move(
        "INSTANT_EXCHANGE",
        a,
        { account_id: a, from_currency: "USD", to_currency: "HKD", from_amount: "1000.00", to_amount: toAmount },
        at(i, 20),
      );
    }
    if (i % 7 === 4) await move("INSTANT_FUNDING", a, { account_id: a, type: "WITHDRAWAL", currency: "USD", amount: "1000.00" }, at(i, 50));
  }
  // Two requests that end badly, so the history shows REJECTED and FAILED with their reasons.
  await move(
    "CASH_JOURNAL",
    seedAccountId(2),
    { from_account: seedAccountId(2), to_account: seedAccountId(3), currency: "USD", amount: "10000000.00" },
    at(3, 15),
  );
  await move(
    "POSITION_JOURNAL",
    seedAccountId(6),
    {
      from_account: seedAccountId(6),
      to_account: seedAccountId(7),
      instrument_type: "EQUITY",
      market: "US",
      symbol: "BAC.PRL",
      quantity: "10",
    },
    at(7, 16),
  );
  await move(
    "FX_EXCHANGE",
    masterId,
    { account_id: masterId, from_currency: "USD", to_currency: "HKD", from_amount: "1000000.00" },
    new Date(anchor.getTime() - 60 * DAY),
  );

  for (const [index, status] of Object.entries(STATUS_PLAN)) {
    const i = Number(index);
    if (status === "CREATED") {
      await tx.query("UPDATE sandbox.virtual_accounts SET account_status = 'CREATED' WHERE account_id = $1", [seedAccountId(i)]);
      continue;
    }
    await updateVirtualAccount(
      tx,
      { client_request_id: `seed-status-${i}`, account_id: seedAccountId(i), account_status: status },
      at(i, 100),
    );
  }
}

async function recordMonthly(tx: Tx, accountId: string, key: string, when: Date, i: number, symbol: string, prices: Map<string, string>) {
  const interest = new Decimal(1 + (i % 9)).times(1.37).toDecimalPlaces(2);
  await lockCash(tx, [[accountId, "USD"]], when);
  await postCash(
    tx,
    {
      accountId,
      currency: "USD",
      amount: interest,
      activity: { key: `${key}:int`, type: "INTERESTS", subType: "CREDIT_INTEREST", description: "Credit interest" },
    },
    when,
  );
  if (i % 3 === 0) {
    const gross = new Decimal(prices.get(`US:${symbol}`)!)
      .times(0.002)
      .times(10 + (i % 7) * 5)
      .toDecimalPlaces(2);
    const tax = gross.times(0.3).toDecimalPlaces(2).neg();
    await postCash(
      tx,
      {
        accountId,
        currency: "USD",
        amount: gross,
        activity: {
          key: `${key}:div`,
          type: "DIVIDENDS",
          subType: "CASH_DIVIDEND",
          market: "US",
          symbol,
          description: `Cash dividend ${symbol}`,
        },
      },
      when,
    );
    await postCash(
      tx,
      {
        accountId,
        currency: "USD",
        amount: tax,
        activity: {
          key: `${key}:tax`,
          type: "TAX",
          subType: "WITHHOLDING_TAX",
          market: "US",
          symbol,
          description: "Dividend withholding tax 30%",
        },
      },
      when,
    );
  }
  if (i % 6 === 0) {
    await postCash(
      tx,
      {
        accountId,
        currency: "USD",
        amount: "-1.50",
        activity: { key: `${key}:fee`, type: "FEES", subType: "ADR_FEE", description: "Account maintenance fee" },
      },
      when,
    );
  }
}
