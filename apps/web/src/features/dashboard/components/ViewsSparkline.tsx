const WIDTH = 96;
const HEIGHT = 28;
/** Room for the stroke at the top and bottom, so a peak or a zero is not cut in half. */
const PAD = 2;

interface ViewsSparklineProps {
  /** Views per day, oldest first (30 days); undefined while they load. */
  series: number[] | undefined;
}

/**
 * A page's views over the last 30 days as a small line, drawn as plain SVG: a chart library for 30 points would
 * weigh more than the whole dashboard (the first screen has a 150 KB budget). The space is kept while the days
 * load, so the row does not move when they arrive. Scaled to the page's own busiest day.
 */
export function ViewsSparkline({ series }: ViewsSparklineProps) {
  if (!series) return <span style={{ display: 'inline-block', width: WIDTH, height: HEIGHT }} aria-hidden="true" />;
  const total = series.reduce((sum, n) => sum + n, 0);
  const peak = Math.max(1, ...series);
  const step = series.length > 1 ? WIDTH / (series.length - 1) : 0;
  const points = series.map((n, i) => `${(i * step).toFixed(1)},${(HEIGHT - PAD - (n / peak) * (HEIGHT - 2 * PAD)).toFixed(1)}`).join(' ');
  const label = `${total} ${total === 1 ? 'view' : 'views'} in the last 30 days`;
  return (
    <svg width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} role="img" aria-label={label} style={{ flexShrink: 0, overflow: 'visible' }}>
      <title>{label}</title>
      <polyline
        points={points}
        fill="none"
        stroke="var(--mantine-primary-color-filled)"
        strokeWidth={1.5}
        strokeLinejoin="round"
        strokeLinecap="round"
        data-testid="sparkline-line"
      />
    </svg>
  );
}
