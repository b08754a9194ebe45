import fs from "node:fs";
import path from "node:path";
import ts from "typescript";
import { describe, expect, it } from "vitest";
import { ROOT, sourceFiles } from "../helpers/source-files";

/**
 * One data-access style: raw parameterised SQL through the engine, and SQL text only in each domain's query module
 * (`server/<domain>/queries.ts` or a `queries/` folder), in the engine and its helpers (server/db), in the sandbox
 * (a second program), in migrations and in the benchmarks (scripts/bench*), which fill tables directly. Every string
 * and template literal of the other modules is read with the TypeScript parser and refused when it reads as SQL: a
 * statement keyword at its start, a clause that only SQL has, a numbered parameter, or a table of the app's schema.
 */
const DIRS = ["server", "lib", "app", "scripts"];

const SQL_MAY_LIVE = [/^server\/db\//, /^server\/sandbox\//, /^scripts\/bench/, /(^|\/)queries\.ts$/, /(^|\/)queries\//];

const SQL_TEXT = [
  /^\s*\(?\s*(SELECT|INSERT|UPDATE|DELETE|WITH|BEGIN|COMMIT|ROLLBACK|LISTEN|UNLISTEN|NOTIFY|SET\s+LOCAL|CREATE|ALTER|DROP|TRUNCATE)\b/,
  /\bSELECT\b[\s\S]*\bFROM\b/,
  /\b(INSERT\s+INTO|DELETE\s+FROM|ON\s+CONFLICT|RETURNING|ORDER\s+BY|GROUP\s+BY|UNION\s+ALL|pg_notify|pg_advisory\w*)\b/,
  /\bUPDATE\s+[\w.]+\s+SET\b/,
  // a table of the app's schema (not the session cookie's name nor a demo email)
  /(?<![@\w-])brokerdesk\.(?!session\b|test\b)[a-z_]+/,
  // a numbered parameter after an operator (not a replacement pattern such as "$1:$2")
  /([=<>(,]|\bIN|\bANY\()\s*\$\d+\b/,
];

/** The literals of a source text that read as SQL, each as `line: text`. */
function sqlLiterals(fileName: string, text: string): string[] {
  const source = ts.createSourceFile(
    fileName,
    text,
    ts.ScriptTarget.Latest,
    true,
    fileName.endsWith(".tsx") ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: string[] = [];
  const check = (node: ts.Node, literal: string) => {
    if (SQL_TEXT.some((re) => re.test(literal))) {
      const line = source.getLineAndCharacterOfPosition(node.getStart()).line + 1;
      found.push(`${line}: ${literal.replace(/\s+/g, " ").trim().slice(0, 80)}`);
    }
  };
  const visit = (node: ts.Node) => {
    if (ts.isImportDeclaration(node) || ts.isExportDeclaration(node)) return;
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) check(node, node.text);
    else if (ts.isTemplateExpression(node)) check(node, [node.head.text, ...node.templateSpans.map((s) => s.literal.text)].join(" ? "));
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

describe("SQL lives only in query modules", () => {
  it("finds SQL in a literal, whatever the call it is passed to (a sanity check of the detector)", () => {
    const violating = [
      "const rows = await db.engine.query(`SELECT id FROM brokerdesk.orders WHERE account_id = $1`, [id]);",
      'await tx.query("UPDATE brokerdesk.sync_runs SET cursor = $2 WHERE job = $1", [job, cursor]);',
      "const where = ['status = $1'];",
      "await engine.exec('LISTEN brokerdesk_changes');",
      "const sql = `INSERT INTO x (a) SELECT b FROM y ON CONFLICT DO NOTHING`;",
    ];
    for (const line of violating) expect(sqlLiterals("x.ts", line), line).toHaveLength(1);
    const innocent = [
      'const message = "Select an account to see its orders";',
      'import { query } from "./queries";',
      "const label = `Updated ${n} rows from the upstream`;",
      'throw new Error("No such order");',
      'const id = raw.replace(/^(\\w+)-(\\w+)$/, "$1:$2");',
      'const cookie = "__Host-brokerdesk.session";',
    ];
    for (const line of innocent) expect(sqlLiterals("x.ts", line), line).toEqual([]);
  });

  it("no module outside server/db, server/sandbox and the query modules holds SQL text", () => {
    const found = sourceFiles(DIRS)
      .filter((f) => !SQL_MAY_LIVE.some((re) => re.test(f)))
      .flatMap((f) => sqlLiterals(f, fs.readFileSync(path.join(ROOT, f), "utf8")).map((hit) => `${f}:${hit}`));
    expect(found).toEqual([]);
  });
});

/**
 * The SQL text of each literal of a module, with `${NAME}` replaced by the module's `const NAME = "…"` (or a template)
 * where it has one (column lists), and by `?` elsewhere.
 */
function statements(fileName: string, text: string): { line: number; sql: string }[] {
  const source = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true, ts.ScriptKind.TS);
  const constants = new Map<string, string>();
  const textOf = (node: ts.Node): string | undefined => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node)) return node.text;
    if (ts.isTemplateExpression(node))
      return [
        node.head.text,
        ...node.templateSpans.map((s) => `${constants.get(s.expression.getText(source)) ?? "?"}${s.literal.text}`),
      ].join("");
    return undefined;
  };
  const found: { line: number; sql: string }[] = [];
  const visit = (node: ts.Node) => {
    if (ts.isVariableDeclaration(node) && ts.isIdentifier(node.name) && node.initializer) {
      const value = textOf(node.initializer);
      if (value !== undefined) constants.set(node.name.text, value);
    }
    const sql = textOf(node);
    if (sql !== undefined && /\bORDER\s+BY\b/i.test(sql))
      found.push({ line: source.getLineAndCharacterOfPosition(node.getStart()).line + 1, sql });
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** ORDER BY items that name bare a column the statement also gives as text under its own name (sorted as text). */
function orderedByText(sql: string): string[] {
  const asText = new Set(
    [...sql.matchAll(/(?:^|[\s,(.])(\w+)::text(?:\s+AS\s+"?(\w+)"?)?/gi)].filter((m) => !m[2] || m[2] === m[1]).map((m) => m[1]),
  );
  const items = [...sql.matchAll(/\bORDER\s+BY\s+([\s\S]*?)(?=\bLIMIT\b|\bOFFSET\b|\bFOR\b|\)|;|$)/gi)].flatMap((m) => m[1].split(","));
  return items.map((i) => i.trim().split(/\s+/)[0]).filter((name) => asText.has(name));
}

describe("lists sort by their values, not by the text of them", () => {
  it("finds an ORDER BY of a column the select list turns into text (a sanity check of the detector)", () => {
    expect(orderedByText("SELECT id::text AS id, name FROM brokerdesk.runs ORDER BY id DESC LIMIT $1")).toEqual(["id"]);
    expect(orderedByText("SELECT id::text, status FROM brokerdesk.runs ORDER BY created_at, id")).toEqual(["id"]);
    expect(orderedByText("SELECT id::text AS id FROM brokerdesk.runs ORDER BY runs.id DESC")).toEqual([]);
    expect(orderedByText('SELECT id::text AS "runId" FROM brokerdesk.runs ORDER BY id')).toEqual([]);
    expect(orderedByText("SELECT seq FROM brokerdesk.events ORDER BY seq")).toEqual([]);
  });

  it("no statement orders by a column it also selects as text under the same name ('10' would sort before '9')", () => {
    const found = sourceFiles(["server", "scripts"])
      .filter((f) => SQL_MAY_LIVE.some((re) => re.test(f)))
      .flatMap((f) =>
        statements(f, fs.readFileSync(path.join(ROOT, f), "utf8")).flatMap(({ line, sql }) =>
          orderedByText(sql).map((name) => `${f}:${line}: ORDER BY ${name}`),
        ),
      );
    expect(found).toEqual([]);
  });
});
