import "server-only";
import PDFDocument from "pdfkit";
import { currencyDecimals, formatMoney } from "@/lib/money";

/**
 * The few layout pieces the desk's PDFs share (statements, confirmations, scheduled reports), over pdfkit with its built-in Helvetica (no font
 * files of ours): an A4 document, a heading block, label/value lines and a table that breaks across pages with its
 * header repeated, and "Page n of m" footers. Every figure arrives as text already formatted.
 */
export type Doc = PDFKit.PDFDocument;

/** An amount as the documents show it: grouped, the currency's decimals, no currency code (a column says it). */
export const docMoney = (amount: string, currency: string) => formatMoney(amount, undefined, currencyDecimals(currency) ?? 2);
/** A moment as the documents show it: UTC to the minute. */
export const docTime = (iso: string) => `${iso.slice(0, 10)} ${iso.slice(11, 16)}`;

export interface Column {
  header: string;
  width: number;
  align?: "left" | "right";
}

const MARGIN = 40;
const ROW = 14;
const FONT = 8;

/** An A4 document; `landscape` for a wide table (762 points of width between the margins, portrait 515). */
export function newDoc(title: string, layout: "portrait" | "landscape" = "portrait"): Doc {
  return new PDFDocument({ size: "A4", layout, margin: MARGIN, bufferPages: true, info: { Title: title, Producer: "Brokerdesk" } });
}

const bottom = (doc: Doc) => doc.page.height - MARGIN - 20;

export function heading(doc: Doc, title: string, lines: [string, string][]): void {
  doc.font("Helvetica-Bold").fontSize(16).fillColor("#0f172a").text(title, MARGIN, MARGIN);
  doc.moveDown(0.4);
  doc.fontSize(9);
  for (const [label, value] of lines) {
    const y = doc.y;
    doc.font("Helvetica").fillColor("#475569").text(label, MARGIN, y, { width: 120 });
    doc
      .font("Helvetica")
      .fillColor("#0f172a")
      .text(value, MARGIN + 125, y, { width: doc.page.width - 2 * MARGIN - 125 });
  }
  doc.moveDown(0.6);
}

/** A line of warning under the heading. */
export function warning(doc: Doc, text: string): void {
  doc
    .font("Helvetica-Bold")
    .fontSize(8)
    .fillColor("#92400e")
    .text(text, MARGIN, doc.y, { width: doc.page.width - 2 * MARGIN });
  doc.moveDown(0.4);
}

export function section(doc: Doc, title: string, note?: string): void {
  // The heading, its note, the table's header and two rows together, or a new page: no heading alone at a page's foot.
  if (doc.y + 5 * ROW + 24 > bottom(doc)) doc.addPage();
  doc.moveDown(0.4);
  doc.font("Helvetica-Bold").fontSize(11).fillColor("#0f172a").text(title, MARGIN, doc.y);
  if (note) doc.font("Helvetica").fontSize(8).fillColor("#64748b").text(note, MARGIN, doc.y);
  doc.moveDown(0.3);
}

/** The text cut to one line of the width, with an ellipsis (pdfkit wraps a text that does not fit, whatever lineBreak says). */
function fit(doc: Doc, text: string, width: number): string {
  if (doc.widthOfString(text) <= width) return text;
  let cut = text;
  while (cut.length > 1 && doc.widthOfString(`${cut}…`) > width) cut = cut.slice(0, -1);
  return `${cut.trimEnd()}…`;
}

function row(doc: Doc, columns: Column[], cells: string[], bold: boolean, shade: boolean): void {
  const y = doc.y;
  const width = columns.reduce((s, c) => s + c.width, 0);
  if (shade) doc.rect(MARGIN, y - 2, width, ROW).fill("#f1f5f9");
  doc
    .font(bold ? "Helvetica-Bold" : "Helvetica")
    .fontSize(FONT)
    .fillColor("#0f172a");
  let x = MARGIN;
  columns.forEach((c, i) => {
    doc.text(fit(doc, cells[i] ?? "", c.width - 4), x + 2, y + 1, { width: c.width - 4, align: c.align ?? "left", lineBreak: false });
    x += c.width;
  });
  doc.y = y + ROW;
  doc.x = MARGIN;
}

/** A table: the header row, then each row; a page break repeats the header. `emphasise` rows are bold. */
export function table(doc: Doc, columns: Column[], rows: string[][], o: { empty?: string; emphasise?: (i: number) => boolean } = {}): void {
  const header = () => {
    row(
      doc,
      columns,
      columns.map((c) => c.header),
      true,
      true,
    );
  };
  if (doc.y + 2 * ROW > bottom(doc)) doc.addPage();
  header();
  if (!rows.length) {
    doc
      .font("Helvetica-Oblique")
      .fontSize(FONT)
      .fillColor("#64748b")
      .text(o.empty ?? "None.", MARGIN + 2, doc.y + 1);
    doc.moveDown(0.5);
    return;
  }
  rows.forEach((cells, i) => {
    if (doc.y + ROW > bottom(doc)) {
      doc.addPage();
      header();
    }
    row(doc, columns, cells, o.emphasise?.(i) ?? false, false);
  });
  doc.moveDown(0.3);
}

/** "Page n of m" and the document's line on every page, then the bytes. */
export function finish(doc: Doc, footer: string): Promise<Buffer> {
  const chunks: Buffer[] = [];
  doc.on("data", (c: Buffer) => chunks.push(c));
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on("end", () => resolve(Buffer.concat(chunks)));
    doc.on("error", reject);
  });
  const range = doc.bufferedPageRange();
  for (let i = range.start; i < range.start + range.count; i++) {
    doc.switchToPage(i);
    const y = doc.page.height - MARGIN;
    // Writing below the bottom margin would add a page: the margin is lifted for the footer.
    const saved = doc.page.margins.bottom;
    doc.page.margins.bottom = 0;
    doc.font("Helvetica").fontSize(7).fillColor("#64748b");
    doc.text(footer, MARGIN, y, { width: 360, lineBreak: false });
    doc.text(`Page ${i + 1} of ${range.count}`, doc.page.width - MARGIN - 100, y, { width: 100, align: "right", lineBreak: false });
    doc.page.margins.bottom = saved;
  }
  doc.end();
  return done;
}
