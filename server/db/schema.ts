import { bigserial, boolean, integer, jsonb, pgSchema, text, timestamp, uuid } from "drizzle-orm/pg-core";

/** The app's tables, in their own PostgreSQL schema (the sandbox has another). SQL lives in ./migrations. */
export const appSchema = pgSchema("brokerdesk");

const ts = (name: string) => timestamp(name, { withTimezone: true, mode: "date" });

export const staffUsers = appSchema.table("staff_users", {
  id: uuid("id").primaryKey().defaultRandom(),
  email: text("email").notNull().unique(),
  name: text("name").notNull(),
  role: text("role").notNull(),
  passwordHash: text("password_hash").notNull(),
  disabled: boolean("disabled").notNull().default(false),
  failedAttempts: integer("failed_attempts").notNull().default(0),
  lockedUntil: ts("locked_until"),
  lastSignInAt: ts("last_sign_in_at"),
  sessionsRevokedAt: ts("sessions_revoked_at"),
  createdAt: ts("created_at").notNull().defaultNow(),
  updatedAt: ts("updated_at").notNull().defaultNow(),
});

export const auditEntries = appSchema.table("audit_entries", {
  seq: bigserial("seq", { mode: "number" }).primaryKey(),
  at: ts("at").notNull(),
  actorId: uuid("actor_id"),
  actorEmail: text("actor_email"),
  actorRole: text("actor_role"),
  action: text("action").notNull(),
  target: text("target"),
  input: jsonb("input"),
  upstreamRequestId: text("upstream_request_id"),
  idempotencyKey: text("idempotency_key"),
  outcome: text("outcome").notNull(),
  errorCode: text("error_code"),
  clientIp: text("client_ip"),
  userAgent: text("user_agent"),
  prevHash: text("prev_hash").notNull(),
  hash: text("hash").notNull(),
});

export const brokerTokens = appSchema.table("broker_tokens", {
  id: uuid("id").primaryKey().defaultRandom(),
  baseUrl: text("base_url").notNull(),
  appKey: text("app_key").notNull(),
  token: text("token").notNull(),
  status: text("status").notNull(),
  expiresAt: ts("expires_at"),
  createdBy: text("created_by"),
  createdAt: ts("created_at").notNull().defaultNow(),
  checkedAt: ts("checked_at").notNull().defaultNow(),
});

export type StaffUser = typeof staffUsers.$inferSelect;
export type AuditEntry = typeof auditEntries.$inferSelect;
