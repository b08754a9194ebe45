import { createElement } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";
import { DateInput } from "@/components/ui/date-input";
import { DATE_PLACEHOLDER, isDeskDate } from "@/lib/format";
import { filterValue, listParams } from "@/lib/list-params";

// Issue 25 item 9: native date inputs showed mm/dd/yyyy (the browser's locale) where the desk writes yyyy-mm-dd.
describe("DateInput", () => {
  it("is a text field in the desk's format with a calendar button; the native date input is only the hidden picker", () => {
    const html = renderToStaticMarkup(
      createElement(DateInput, { name: "from", "aria-label": "From", value: "2026-09-28", onChange: () => {} }),
    );
    const field = html.match(/<input[^>]*name="from"[^>]*>/)?.[0] ?? "";
    expect(field).toContain('type="text"');
    expect(html).toContain(`placeholder="${DATE_PLACEHOLDER}"`);
    expect(html).toContain('value="2026-09-28"');
    expect(html).toMatch(/<button type="button"[^>]*aria-label="Open calendar"/);
    // the picker: no name (never sent), out of the tab order and the accessibility tree
    expect(html).toMatch(/<input type="date" tabindex="-1" aria-hidden="true"(?![^>]*name=)/);
  });

  it("takes yyyy-mm-dd days that exist, nothing else", () => {
    expect(isDeskDate("2026-09-28")).toBe(true);
    expect(isDeskDate("2024-02-29")).toBe(true);
    for (const bad of ["2026-02-30", "09/28/2026", "2026-9-28", "2026-13-01", "28-09-2026", ""]) expect(isDeskDate(bad)).toBe(false);
    // a filter typed by hand (no browser control to stop it any more) refuses a day that does not exist
    const p = listParams({ filters: { from: filterValue.day }, sortable: [], sizes: [10], defaultSize: 10 });
    expect(p.parse(new URLSearchParams("from=2026-02-30")).from).toBeUndefined();
    expect(p.parse(new URLSearchParams("from=2026-02-28")).from).toBe("2026-02-28");
  });
});
