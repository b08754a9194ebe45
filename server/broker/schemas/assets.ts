import "server-only";
import { z } from "zod";
import { balance, position } from "@/lib/schemas/account-data";
import { CURRENCIES } from "./common";

/** Balance and positions (facts §5.3); the response schemas are the plain ones of `lib/schemas/account-data.ts`. */
export const accountIdIn = z.object({ account_id: z.string().min(1) });
export const balanceIn = accountIdIn.extend({ total_asset_currency: z.enum(CURRENCIES).optional() });

export { balance, position };
