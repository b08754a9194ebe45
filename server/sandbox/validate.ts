import "server-only";
import { z } from "zod";
import { illegal } from "./errors";

/** Parses with zod; the first issue becomes a 417 ILLEGAL_PARAMETER naming the field. */
export function parseWith<S extends z.ZodType>(schema: S, value: unknown): z.infer<S> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const issue = result.error.issues[0];
  const field = issue.path.join(".");
  throw illegal(field ? `${field}: ${issue.message}` : issue.message);
}

/** Accepts ISO-8601 and the upstream's yyyy-MM-dd'T'HH:mm:ss.SSSZ (offset without a colon, e.g. +0000). */
export function parseTime(value: string | undefined, field: string): Date | undefined {
  if (value === undefined || value === "") return undefined;
  const normalised = value.replace(/([+-]\d{2})(\d{2})$/, "$1:$2");
  const ms = Date.parse(normalised);
  if (!/^\d{4}-\d{2}-\d{2}/.test(value) || Number.isNaN(ms)) throw illegal(`${field} must be yyyy-MM-ddTHH:mm:ss.SSSZ.`);
  return new Date(ms);
}

export function parseDate(value: string | undefined, field: string): string | undefined {
  if (value === undefined || value === "") return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(value) || Number.isNaN(Date.parse(value))) throw illegal(`${field} must be yyyy-MM-dd.`);
  return value;
}

export function oneOf<T extends string>(value: string | undefined, allowed: readonly T[], field: string): T | undefined {
  if (value === undefined || value === "") return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw illegal(`${field} must be one of ${allowed.join(", ")}.`);
  return value as T;
}

export function required(query: Record<string, string>, field: string): string {
  const v = query[field];
  if (v === undefined || v === "") throw illegal(`${field} is required.`);
  return v;
}
