import "server-only";
import { and, desc, eq } from "drizzle-orm";
import type { AppDb } from "@/server/db";
import { brokerTokens } from "@/server/db/schema";

/**
 * Where the upstream token lives: the database (table broker_tokens), never the browser. One row per token
 * created, scoped by base URL and app key so switching upstreams never sends a token to the wrong one.
 */
export interface TokenScope {
  baseUrl: string;
  appKey: string;
}

export interface StoredToken {
  token: string;
  /** Upstream status, raw: PENDING | NORMAL | EXPIRED | INVALID or a newer value. */
  status: string;
  expiresAt: Date | null;
  createdBy: string | null;
  createdAt: Date;
  checkedAt: Date;
}

export interface TokenStore {
  latest(scope: TokenScope): Promise<StoredToken | undefined>;
  insert(
    scope: TokenScope,
    token: { token: string; status: string; expiresAt: Date | null; createdBy: string | null },
  ): Promise<StoredToken>;
  /** Updates the row of `token` (a refresh may replace the token string itself). */
  update(scope: TokenScope, token: string, patch: { token?: string; status: string; expiresAt: Date | null }): Promise<void>;
}

/** For tests and scripts. */
export class MemoryTokenStore implements TokenStore {
  readonly rows: (StoredToken & TokenScope)[] = [];

  async latest(scope: TokenScope) {
    const rows = this.rows.filter((r) => r.baseUrl === scope.baseUrl && r.appKey === scope.appKey);
    const row = rows[rows.length - 1];
    return row ? strip(row) : undefined;
  }

  async insert(scope: TokenScope, t: { token: string; status: string; expiresAt: Date | null; createdBy: string | null }) {
    const now = new Date();
    const row = { ...scope, ...t, createdAt: now, checkedAt: now };
    this.rows.push(row);
    return strip(row);
  }

  async update(scope: TokenScope, token: string, patch: { token?: string; status: string; expiresAt: Date | null }) {
    const row = this.rows.find((r) => r.baseUrl === scope.baseUrl && r.appKey === scope.appKey && r.token === token);
    if (row) Object.assign(row, { ...patch, token: patch.token ?? row.token, checkedAt: new Date() });
  }
}

function strip(r: StoredToken & TokenScope): StoredToken {
  return {
    token: r.token,
    status: r.status,
    expiresAt: r.expiresAt,
    createdBy: r.createdBy,
    createdAt: r.createdAt,
    checkedAt: r.checkedAt,
  };
}

export class DbTokenStore implements TokenStore {
  constructor(private readonly db: () => Promise<AppDb>) {}

  async latest(scope: TokenScope) {
    const { orm } = await this.db();
    const [row] = await orm
      .select()
      .from(brokerTokens)
      .where(and(eq(brokerTokens.baseUrl, scope.baseUrl), eq(brokerTokens.appKey, scope.appKey)))
      .orderBy(desc(brokerTokens.createdAt))
      .limit(1);
    return row
      ? {
          token: row.token,
          status: row.status,
          expiresAt: row.expiresAt,
          createdBy: row.createdBy,
          createdAt: row.createdAt,
          checkedAt: row.checkedAt,
        }
      : undefined;
  }

  async insert(scope: TokenScope, t: { token: string; status: string; expiresAt: Date | null; createdBy: string | null }) {
    const { orm } = await this.db();
    const [row] = await orm
      .insert(brokerTokens)
      .values({
        baseUrl: scope.baseUrl,
        appKey: scope.appKey,
        token: t.token,
        status: t.status,
        expiresAt: t.expiresAt,
        createdBy: t.createdBy,
      })
      .returning();
    return {
      token: row.token,
      status: row.status,
      expiresAt: row.expiresAt,
      createdBy: row.createdBy,
      createdAt: row.createdAt,
      checkedAt: row.checkedAt,
    };
  }

  async update(scope: TokenScope, token: string, patch: { token?: string; status: string; expiresAt: Date | null }) {
    const { orm } = await this.db();
    await orm
      .update(brokerTokens)
      .set({ token: patch.token ?? token, status: patch.status, expiresAt: patch.expiresAt, checkedAt: new Date() })
      .where(and(eq(brokerTokens.baseUrl, scope.baseUrl), eq(brokerTokens.appKey, scope.appKey), eq(brokerTokens.token, token)));
  }
}
