import { z } from "zod";

/**
 * Trading API credentials of a virtual account (its account holder's app key): issue and revoke, one schema each,
 * shared by the panel and the server actions. The secret is in the issue result only, never in a list or the audit.
 */
export const issueTradingCredentialSchema = z.object({ account_id: z.string().trim().min(1, "Account is required.").max(64) });
export const revokeTradingCredentialSchema = z.object({
  account_id: z.string().trim().min(1, "Account is required.").max(64),
  app_key: z.string().trim().min(1, "App key is required.").max(64),
});

export const tradingCredentialViewSchema = z.object({
  app_key: z.string(),
  account_id: z.string(),
  status: z.string(),
  create_time: z.string(),
  revoke_time: z.string().optional(),
});
export type TradingCredentialView = z.infer<typeof tradingCredentialViewSchema>;

export const issuedTradingCredentialSchema = tradingCredentialViewSchema.extend({ app_secret: z.string() });
export type IssuedTradingCredential = z.infer<typeof issuedTradingCredentialSchema>;
