import "server-only";
import { AppError } from "@/lib/errors";

/** The staff actions' answer to a user deleted or never there: a failed result, not a crash. */
export function mustExist<T>(user: T | undefined): T {
  if (!user) throw new AppError("NOT_FOUND", "staff user not found", "That staff user no longer exists.");
  return user;
}
