import fs from "node:fs";
import path from "node:path";
import { createElement, type ComponentType } from "react";
import { renderToStaticMarkup } from "react-dom/server";
import { describe, expect, it } from "vitest";

// Issue 23 item 3: every route segment that reads data has a loading state. Every desk page reads at least the
// session, most of them data: each is covered by a loading.tsx in its folder or above it, and each of those is
// announced to assistive technology as loading.
const DESK = path.join(process.cwd(), "app", "(desk)");

function files(dir: string, name: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? files(p, name) : e.name === name ? [p] : [];
  });
}

describe("loading states", () => {
  it("cover every desk page", () => {
    const uncovered = files(DESK, "page.tsx").filter((page) => {
      for (let dir = path.dirname(page); dir.startsWith(DESK); dir = path.dirname(dir)) {
        if (fs.existsSync(path.join(dir, "loading.tsx"))) return false;
      }
      return true;
    });
    expect(uncovered.map((p) => path.relative(process.cwd(), p))).toEqual([]);
  });

  it("say that the page is loading (role=status, busy, a text for screen readers)", async () => {
    const loadings = files(DESK, "loading.tsx");
    expect(loadings.length).toBeGreaterThan(30);
    for (const file of loadings) {
      const { default: Loading } = (await import(file)) as { default: ComponentType };
      const html = renderToStaticMarkup(createElement(Loading));
      expect(html, path.relative(process.cwd(), file)).toMatch(/^<div[^>]*aria-busy="true"[^>]*role="status"/);
      expect(html, path.relative(process.cwd(), file)).toContain("Loading…");
    }
  });
});
