import { z } from "zod";
import { INSTRUMENT_MARKETS } from "@/lib/instruments";

/**
 * The instrument page's tabs and what their GET routes answer (`/api/instruments/{market}/{symbol}/{tab}`).
 * Statements are a stock's, fund data an ETF's: the page offers one or the other.
 */
export const INSTRUMENT_TABS = [
  "profile",
  "analyst",
  "calendars",
  "statements",
  "fund",
  "corporate-actions",
  "margin",
  "shortability",
] as const;
export type InstrumentTab = (typeof INSTRUMENT_TABS)[number];

export const TAB_LABELS: Record<InstrumentTab, string> = {
  profile: "Profile",
  analyst: "Analyst rating & target",
  calendars: "Earnings & dividends",
  statements: "Financial statements",
  fund: "Fund data",
  "corporate-actions": "Corporate actions",
  margin: "Margin ratios",
  shortability: "Shortability & locate",
};

/** The tabs an instrument has: an ETF's fund data stands where a company's statements would. */
export const tabsFor = (isEtf: boolean): InstrumentTab[] => INSTRUMENT_TABS.filter((t) => (isEtf ? t !== "statements" : t !== "fund"));

export const instrumentPathIn = z.object({
  market: z
    .string()
    .transform((v) => v.toUpperCase())
    .pipe(z.enum(INSTRUMENT_MARKETS)),
  // A stock's symbol: letters, digits, a dot or a dash (BRK.B, 00700); an option's page is its underlying's.
  symbol: z
    .string()
    .trim()
    .regex(/^[A-Za-z0-9.-]{1,24}$/, "must be a stock symbol")
    .transform((v) => v.toUpperCase()),
});
export const instrumentTabIn = instrumentPathIn.extend({ tab: z.enum(INSTRUMENT_TABS) });

/** One instrument of the desk's instrument master, as the search and the page's tabs need it. */
export interface InstrumentSummary {
  instrumentId: string;
  market: string;
  symbol: string;
  name: string;
  currency: string;
  subCategory: string;
  isEtf: boolean;
  exchange: string;
}

export type FactValue = string | boolean | null;

/** A section of a tab: one record shown as label/value pairs, or several as a table (a statement: line items by period). */
export interface FactSection {
  title: string;
  columns: {
    key: string;
    label: string;
    numeric: boolean;
    money: boolean;
    /** A fraction shown as a percentage (margin requirements: 0.25 is 25 %). */
    percent?: boolean;
  }[];
  rows: Record<string, FactValue>[];
  /** The currency of its money columns. */
  currency?: string;
  /** Show one record as label/value pairs. */
  layout: "record" | "table";
  empty: string;
}

export interface TabData {
  tab: InstrumentTab;
  sections: FactSection[];
}
