import "server-only";
import type { RuleKind, RuleParams } from "@/lib/schemas/surveillance";
import type { Queryable } from "@/server/db/engine";

/** The surveillance rules' statements: one set-based INSERT … SELECT … ON CONFLICT a rule kind. */

/** The seqs of the events a projection batch applied: rules look at the rows whose last event is in it. */
export interface SeqRange {
  from: number;
  to: number;
}

export interface RuleRow {
  id: string;
  kind: RuleKind;
  params: unknown;
}

// Movements that did not happen do not count.
const LIVE_MOVEMENT = "status NOT IN ('REJECTED', 'CANCELED', 'FAILED')";
const WITHDRAWALS = "('WITHDRAWAL', 'WITHDRAW')";

const movementRef = (
  m: string,
) => `jsonb_build_object('kind', ${m}.kind, 'client_request_id', ${m}.client_request_id, 'direction', ${m}.direction,
  'amount', ${m}.amount::text, 'currency', ${m}.currency, 'market', ${m}.market, 'symbol', ${m}.symbol, 'quantity', ${m}.quantity::text,
  'from_account', ${m}.from_account, 'to_account', ${m}.to_account, 'status', ${m}.status, 'at', ${m}.created_at)`;

/**
 * No alert of this rule for the subject yet. Checked before inserting, so that a row evaluated again takes no number
 * from the alerts' sequence (an insert that meets ON CONFLICT has taken one): alert numbers follow each other. The
 * ON CONFLICT stays for two evaluations at once.
 */
const notRaised = (subject: string) => `NOT EXISTS (SELECT 1 FROM brokerdesk.alerts x WHERE x.rule_id = $1 AND x.subject = ${subject})`;

/** An amount as the summary shows it: thousands separated, its decimals kept (the currencies here have at most 2). */
const money = (expr: string) => `to_char(${expr}, 'FM999,999,999,999,990.00')`;

type Statement = (ruleId: string, range: SeqRange, params: never) => { sql: string; values: unknown[] };

const STATEMENTS: { [K in RuleKind]: (ruleId: string, range: SeqRange, p: RuleParams[K]) => { sql: string; values: unknown[] } } = {
  large_funding: (ruleId, r, p) => ({
    sql: `INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, movements, occurred_at)
          SELECT $1, 'movement:' || m.kind || ':' || m.client_request_id, m.account_id,
                 format('%s of %s %s (above %s)', CASE WHEN m.direction = 'DEPOSIT' THEN 'Deposit' ELSE 'Withdrawal' END, m.currency, ${money("m.amount")}, ${money("$5::numeric")}),
                 jsonb_build_array(${movementRef("m")}), m.created_at
            FROM brokerdesk.money_movements m
           WHERE m.last_event_seq BETWEEN $2 AND $3 AND m.kind = 'INSTANT_FUNDING' AND (m.direction = 'DEPOSIT' OR m.direction IN ${WITHDRAWALS})
             AND m.${LIVE_MOVEMENT} AND m.currency = $4 AND m.amount > $5::numeric
             AND ${notRaised("'movement:' || m.kind || ':' || m.client_request_id")}
          ON CONFLICT (rule_id, subject) DO NOTHING RETURNING id`,
    values: [ruleId, r.from, r.to, p.currency, p.amount],
  }),
  withdrawal_after_deposit: (ruleId, r, p) => ({
    sql: `INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, movements, occurred_at)
          SELECT $1, 'movement:' || w.kind || ':' || w.client_request_id, w.account_id,
                 format('Withdrawal of %s %s within %s days of a deposit of %s %s', w.currency, ${money("w.amount")}, $4::int, d.currency, ${money("d.amount")}),
                 jsonb_build_array(${movementRef("d")}, ${movementRef("w")}), w.created_at
            FROM brokerdesk.money_movements w
            JOIN LATERAL (
              SELECT * FROM brokerdesk.money_movements d
               WHERE d.kind = 'INSTANT_FUNDING' AND d.account_id = w.account_id AND d.direction = 'DEPOSIT' AND d.${LIVE_MOVEMENT}
                 AND d.currency = w.currency AND d.created_at <= w.created_at AND d.created_at >= w.created_at - make_interval(days => $4::int)
                 AND abs(d.amount - w.amount) <= d.amount * $5::numeric / 100
               ORDER BY d.created_at DESC, d.id DESC LIMIT 1) d ON true
           WHERE w.last_event_seq BETWEEN $2 AND $3 AND w.kind = 'INSTANT_FUNDING' AND w.direction IN ${WITHDRAWALS}
             AND w.${LIVE_MOVEMENT} AND w.amount >= $6::numeric
             AND ${notRaised("'movement:' || w.kind || ':' || w.client_request_id")}
          ON CONFLICT (rule_id, subject) DO NOTHING RETURNING id`,
    values: [ruleId, r.from, r.to, p.days, p.tolerancePct, p.minAmount],
  }),
  // One alert per account and UTC day; a later journal the same day adds itself to the open alert's list.
  journals_per_day: (ruleId, r, p) => ({
    sql: `WITH touched AS (
            SELECT DISTINCT to_account, (created_at AT TIME ZONE 'UTC')::date AS day FROM brokerdesk.money_movements
             WHERE last_event_seq BETWEEN $2 AND $3 AND kind IN ('CASH_JOURNAL', 'POSITION_JOURNAL') AND to_account IS NOT NULL AND ${LIVE_MOVEMENT}
          ), counted AS (
            SELECT t.to_account, t.day, count(*) AS n, max(m.created_at) AS last_at, jsonb_agg(${movementRef("m")} ORDER BY m.created_at, m.id) AS refs
              FROM touched t
              JOIN brokerdesk.money_movements m ON m.to_account = t.to_account AND m.kind IN ('CASH_JOURNAL', 'POSITION_JOURNAL') AND m.${LIVE_MOVEMENT}
               AND m.created_at >= (t.day::timestamp AT TIME ZONE 'UTC') AND m.created_at < ((t.day + 1)::timestamp AT TIME ZONE 'UTC')
             GROUP BY t.to_account, t.day
            HAVING count(*) > $4::int
          ), subjects AS (
            -- The account by its number where the directory knows it: the summary never shows the upstream's id.
            SELECT c.*, 'journals:' || c.to_account || ':' || c.day::text AS subject,
                   format('%s journals into %s on %s (more than %s)', c.n, COALESCE('account ' || d.account_number, 'one account'), c.day::text, $4::int) AS summary
              FROM counted c LEFT JOIN brokerdesk.account_directory d ON d.account_id = c.to_account
          ), grown AS (
            UPDATE brokerdesk.alerts a SET movements = s.refs, summary = s.summary
              FROM subjects s
             WHERE a.rule_id = $1 AND a.subject = s.subject AND a.status = 'open' AND a.movements IS DISTINCT FROM s.refs
            RETURNING a.id
          ), raised AS (
            INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, movements, occurred_at)
            SELECT $1, subject, to_account, summary, refs, last_at FROM subjects s WHERE ${notRaised("s.subject")}
            ON CONFLICT (rule_id, subject) DO NOTHING
            RETURNING id
          )
          SELECT id FROM grown UNION ALL SELECT id FROM raised`,
    values: [ruleId, r.from, r.to, p.count],
  }),
  option_after_level_raise: (ruleId, r, p) => ({
    sql: `INSERT INTO brokerdesk.alerts (rule_id, subject, account_id, summary, orders, details, occurred_at)
          SELECT $1, 'order:' || o.account_id || ':' || o.client_order_id, o.account_id,
                 format('Option order %s within %s hours of the option level raised %s → %s', COALESCE(o.symbol, o.client_order_id), $4::int,
                        COALESCE(c.from_level, 'none'), c.to_level),
                 jsonb_build_array(jsonb_build_object('id', o.id::text, 'client_order_id', o.client_order_id, 'market', o.market, 'symbol', o.symbol, 'side', o.side,
                   'status', o.status, 'at', o.listed_at)),
                 jsonb_build_object('from_level', c.from_level, 'to_level', c.to_level, 'changed_at', c.changed_at, 'changed_by', c.changed_by),
                 o.listed_at
            FROM brokerdesk.orders o
            JOIN LATERAL (
              SELECT * FROM brokerdesk.option_level_changes c
               WHERE c.account_id = o.account_id AND c.changed_at <= o.listed_at AND c.changed_at >= o.listed_at - make_interval(hours => $4::int)
               ORDER BY c.changed_at DESC, c.id DESC LIMIT 1) c ON true
           WHERE o.last_event_seq BETWEEN $2 AND $3
             AND (o.instrument_type = 'OPTION' OR o.category LIKE '%OPTION' OR o.option_strategy IS NOT NULL)
             AND ${notRaised("'order:' || o.account_id || ':' || o.client_order_id")}
          ON CONFLICT (rule_id, subject) DO NOTHING RETURNING id`,
    values: [ruleId, r.from, r.to, p.hours],
  }),
};

export async function selectEnabledRules(tx: Queryable): Promise<RuleRow[]> {
  const { rows } = await tx.query<RuleRow>(
    "SELECT id::text AS id, kind, params FROM brokerdesk.surveillance_rules WHERE enabled ORDER BY surveillance_rules.id",
  );
  return rows;
}

/** Runs one rule's statement over the rows changed by events in `range`; returns how many alerts it raised or grew. */
export async function raiseAlerts(tx: Queryable, rule: RuleRow, range: SeqRange, params: RuleParams[RuleKind]): Promise<number> {
  const { sql, values } = (STATEMENTS[rule.kind] as Statement)(rule.id, range, params as never);
  const { rows } = await tx.query(sql, values);
  return rows.length;
}
