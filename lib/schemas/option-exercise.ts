import Decimal from "decimal.js";
import { z } from "zod";
import { CLIENT_ID_PATTERN } from "@/lib/ids";

/** Exercise (or mark "do not exercise") held option contracts: whole contracts, keyed by one client_request_id. */
export const optionExerciseSchema = z.object({
  account_id: z.string().trim().min(1).max(64),
  client_request_id: z.string().regex(CLIENT_ID_PATTERN, "Reload the page: the request id is invalid"),
  symbol: z
    .string()
    .trim()
    .regex(/^[A-Z.]{1,6}\d{6}[CP]\d{8}$/, "An OCC option symbol"),
  quantity: z
    .string()
    .trim()
    .refine((v) => /^\d+$/.test(v) && new Decimal(v).gt(0), "Whole contracts, at least one"),
  exercise_type: z.enum(["EXERCISE", "DO_NOT_EXERCISE"]),
  /** The operator confirmed exercising a contract out of the money (kept in the audited input). */
  confirm_out_of_money: z.boolean().default(false),
});
