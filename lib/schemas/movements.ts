import { z } from "zod";
import { CURRENCIES, INSTRUMENT_TYPES, MARKETS } from "@/lib/broker-enums";
import { CLIENT_ID_PATTERN } from "@/lib/ids";
import { amountProblem, DECIMAL_PATTERN, decimalPlaces, decimalSign } from "@/lib/money";

/**
 * Money movement requests: one schema per kind, shared by its form's resolver and its server action. The parsed
 * value is the upstream request body itself (wire field names, decimal strings, the `client_request_id` made when
 * the form opened), so what an approver sees and what is finally sent are the same bytes.
 */
export const MOVEMENT_REQUEST_KINDS = ["CASH_JOURNAL", "POSITION_JOURNAL", "INSTANT_FUNDING", "FX_EXCHANGE", "INSTANT_EXCHANGE"] as const;
export type MovementRequestKind = (typeof MOVEMENT_REQUEST_KINDS)[number];

export const MOVEMENT_KIND_LABELS: Record<MovementRequestKind, string> = {
  CASH_JOURNAL: "Cash journal",
  POSITION_JOURNAL: "Position journal",
  INSTANT_FUNDING: "Instant funding",
  FX_EXCHANGE: "FX request",
  INSTANT_EXCHANGE: "Instant exchange",
};

export const OCC_SYMBOL = /^[A-Z.]{1,6}\d{6}[CP]\d{8}$/;

const clientRequestId = z.string().regex(CLIENT_ID_PATTERN, "The request id is missing; reopen the form");
const accountId = (what: string) =>
  z
    .string({ message: `Choose the ${what}` })
    .trim()
    .min(1, `Choose the ${what}`);
const currency = z.enum(CURRENCIES, { message: "Choose a currency" });
const amountText = z.string({ message: "Enter an amount such as 12.50" }).trim();

/** Adds the amount's problem (decimals of its currency, positive) on `path`. */
function checkAmount(value: string, cur: string, ctx: z.RefinementCtx, path: string) {
  const problem = amountProblem(value, cur);
  if (problem) ctx.addIssue({ code: "custom", message: problem, path: [path] });
}

export const cashJournalSchema = z
  .object({
    client_request_id: clientRequestId,
    from_account: accountId("account to take the cash from"),
    to_account: accountId("account to credit"),
    currency,
    amount: amountText,
  })
  .superRefine((v, ctx) => {
    checkAmount(v.amount, v.currency, ctx, "amount");
    if (v.from_account && v.from_account === v.to_account)
      ctx.addIssue({ code: "custom", message: "Choose two different accounts", path: ["to_account"] });
  });

export const positionJournalSchema = z
  .object({
    client_request_id: clientRequestId,
    from_account: accountId("account to take the position from"),
    to_account: accountId("account to receive it"),
    instrument_type: z.enum(INSTRUMENT_TYPES, { message: "Choose stock or option" }),
    market: z.enum(MARKETS, { message: "Choose a market" }),
    symbol: z.string().trim().toUpperCase().min(1, "Enter the symbol").max(24, "A symbol has at most 24 characters"),
    quantity: z.string({ message: "Enter a quantity" }).trim().max(32, "Enter a quantity of at most 32 characters"),
  })
  .superRefine((v, ctx) => {
    if (v.from_account && v.from_account === v.to_account)
      ctx.addIssue({ code: "custom", message: "Choose two different accounts", path: ["to_account"] });
    if (v.instrument_type === "OPTION" && !OCC_SYMBOL.test(v.symbol)) {
      ctx.addIssue({ code: "custom", message: "An option is named by its OCC symbol, such as AAPL261218C00200000", path: ["symbol"] });
    }
    if (!DECIMAL_PATTERN.test(v.quantity) || decimalSign(v.quantity) <= 0)
      ctx.addIssue({ code: "custom", message: "Enter a quantity greater than zero", path: ["quantity"] });
    else if (v.instrument_type === "OPTION" && decimalPlaces(v.quantity) > 0)
      ctx.addIssue({ code: "custom", message: "Option contracts are whole numbers", path: ["quantity"] });
  });

export const FUNDING_TYPES = ["DEPOSIT", "WITHDRAWAL"] as const;
export const instantFundingSchema = z
  .object({
    client_request_id: clientRequestId,
    account_id: accountId("account"),
    type: z.enum(FUNDING_TYPES, { message: "Choose deposit or withdrawal" }),
    currency,
    amount: amountText,
  })
  .superRefine((v, ctx) => checkAmount(v.amount, v.currency, ctx, "amount"));

const exchangeShape = {
  client_request_id: clientRequestId,
  account_id: accountId("account"),
  from_currency: currency,
  to_currency: currency,
  from_amount: amountText,
};
function checkExchange(v: { from_currency: string; to_currency: string; from_amount: string }, ctx: z.RefinementCtx) {
  checkAmount(v.from_amount, v.from_currency, ctx, "from_amount");
  if (v.from_currency === v.to_currency)
    ctx.addIssue({ code: "custom", message: "Choose a different currency to convert to", path: ["to_currency"] });
}

/** An FX request at the omnibus master account. */
export const fxRequestSchema = z.object(exchangeShape).superRefine(checkExchange);

/** An instant exchange at a virtual account; `to_amount` comes from the live quote the form showed. */
export const instantExchangeSchema = z.object({ ...exchangeShape, to_amount: amountText }).superRefine((v, ctx) => {
  checkExchange(v, ctx);
  checkAmount(v.to_amount, v.to_currency, ctx, "to_amount");
});

export type CashJournalRequest = z.output<typeof cashJournalSchema>;
export type PositionJournalRequest = z.output<typeof positionJournalSchema>;
export type InstantFundingRequest = z.output<typeof instantFundingSchema>;
export type FxRequestRequest = z.output<typeof fxRequestSchema>;
export type InstantExchangeRequest = z.output<typeof instantExchangeSchema>;
