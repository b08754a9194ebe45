import "server-only";
import type { AppDb } from "@/server/db";
import { insertToken, selectLatestToken, updateToken, type TokenRow } from "./queries";

/**
 * Where the upstream token lives: the database (table broker_tokens), never the browser. One row per token
 * created, scoped by base URL and app key so switching upstreams never sends a token to the wrong one.
 */
export interface TokenScope {
  baseUrl: string;
  appKey: string;
}

export type StoredToken = TokenRow;

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
    return selectLatestToken((await this.db()).engine, scope.baseUrl, scope.appKey);
  }

  async insert(scope: TokenScope, t: { token: string; status: string; expiresAt: Date | null; createdBy: string | null }) {
    return insertToken((await this.db()).engine, { ...scope, ...t });
  }

  async update(scope: TokenScope, token: string, patch: { token?: string; status: string; expiresAt: Date | null }) {
    await updateToken((await this.db()).engine, scope, token, { ...patch, token: patch.token ?? token });
  }
}
