/** Events received per minute over the last hour: plain SVG bars (one per minute), the peak labelled. */
export function EventsChart({ points }: { points: { minute: string; count: number }[] }) {
  const width = 600;
  const height = 96;
  const max = Math.max(1, ...points.map((p) => p.count));
  const bar = width / Math.max(1, points.length);
  const total = points.reduce((s, p) => s + p.count, 0);
  const time = (iso: string) => new Date(iso).toISOString().slice(11, 16);
  return (
    <figure className="text-xs text-slate-500">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        className="h-24 w-full"
        role="img"
        aria-label={`Events per minute, last hour: ${total} in all, at most ${max} in a minute`}
        preserveAspectRatio="none"
      >
        {points.map((p, i) => {
          const h = p.count ? Math.max(2, (p.count / max) * (height - 4)) : 0;
          return (
            <rect key={p.minute} x={i * bar + 1} y={height - h} width={Math.max(1, bar - 2)} height={h} className="fill-blue-600">
              <title>{`${time(p.minute)} UTC: ${p.count} events`}</title>
            </rect>
          );
        })}
        <line x1="0" x2={width} y1={height - 0.5} y2={height - 0.5} className="stroke-slate-300" />
      </svg>
      <figcaption className="mt-1 flex justify-between tabular-nums">
        <span>{points[0] ? `${time(points[0].minute)} UTC` : ""}</span>
        <span>
          peak {max.toLocaleString("en-GB")}/min · {total.toLocaleString("en-GB")} in the last hour
        </span>
        <span>{points.length ? `${time(points[points.length - 1].minute)} UTC` : ""}</span>
      </figcaption>
    </figure>
  );
}
