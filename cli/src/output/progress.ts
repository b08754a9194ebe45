/**
 * A progress bar on stderr while a command reads page after page (`--all`, `… export`): only on a terminal, so a
 * script's stderr holds nothing but errors. The total is unknown until the last page, so the bar moves with each
 * page and the counts tell how far it got.
 */

type Stream = { isTTY?: boolean; columns?: number; write(text: string): unknown };

export type Progress = { page(rows: number): void; done(): void };

const WIDTH = 20;

export function progressBar(stream: Stream, label: string, now: () => number = Date.now): Progress {
  if (!stream.isTTY) return { page: () => {}, done: () => {} };
  let pages = 0;
  let rows = 0;
  let drawn = 0;
  const draw = () => {
    const at = pages % (WIDTH * 2);
    const pos = at < WIDTH ? at : WIDTH * 2 - at - 1;
    const bar = Array.from({ length: WIDTH }, (_, i) => (Math.abs(i - pos) <= 1 ? "█" : "░")).join("");
    stream.write(`\r${label} ${bar} ${pages} page${pages === 1 ? "" : "s"} · ${rows} rows\x1b[K`);
    drawn = now();
  };
  return {
    page(count) {
      pages += 1;
      rows += count;
      if (now() - drawn >= 80 || pages === 1) draw();
    },
    done() {
      if (pages === 0) return;
      draw();
      stream.write("\n");
    },
  };
}
