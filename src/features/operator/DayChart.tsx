import { useEffect, useRef } from 'react';
import type uPlot from 'uplot';

export interface DaySeries {
  label: string;
  /** A CSS colour or custom property name (--color-…), resolved when drawn. */
  color: string;
  values: number[];
}

function resolveColor(color: string): string {
  if (!color.startsWith('--')) return color;
  return getComputedStyle(document.documentElement).getPropertyValue(color).trim() || '#888';
}

/**
 * A small chart of per-day values. uPlot (and its CSS) load only when a chart is first drawn, so the library never
 * weighs on the entry bundle or on pages without charts.
 */
export function DayChart({
  days,
  series,
  label,
  format = (v) => String(v),
}: {
  /** UTC days, YYYY-MM-DD. */
  days: string[];
  series: DaySeries[];
  label: string;
  format?: (value: number) => string;
}) {
  const box = useRef<HTMLDivElement>(null);

  useEffect(() => {
    const element = box.current;
    if (!element) return;
    let plot: uPlot | undefined;
    let observer: ResizeObserver | undefined;
    let cancelled = false;
    void Promise.all([import('uplot'), import('uplot/dist/uPlot.min.css')]).then(([{ default: UPlot }]) => {
      if (cancelled) return;
      const axisColor = resolveColor('--color-muted');
      const gridColor = resolveColor('--color-line');
      const axis = { stroke: axisColor, grid: { stroke: gridColor, width: 1 }, ticks: { stroke: gridColor } };
      plot = new UPlot(
        {
          width: element.clientWidth,
          height: 160,
          legend: { show: true },
          cursor: { y: false },
          scales: { x: { time: true } },
          axes: [axis, { ...axis, size: 56, values: (_u, ticks) => ticks.map(format) }],
          series: [
            {},
            ...series.map((s) => ({
              label: s.label,
              stroke: resolveColor(s.color),
              width: 2,
              value: (_u: uPlot, v: number | null) => (v === null ? '—' : format(v)),
            })),
          ],
        },
        [days.map((d) => Date.parse(`${d}T00:00:00Z`) / 1000), ...series.map((s) => s.values)],
        element,
      );
      observer = new ResizeObserver(() => plot?.setSize({ width: element.clientWidth, height: 160 }));
      observer.observe(element);
    });
    return () => {
      cancelled = true;
      observer?.disconnect();
      plot?.destroy();
    };
  }, [days, series, format]);

  return <div ref={box} role="img" aria-label={label} className="min-h-40 w-full text-xs text-muted" />;
}
