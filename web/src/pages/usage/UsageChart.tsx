// The month's spend by day as a uPlot bar chart. uPlot is imported here only, and this file only
// by the Usage page (itself loaded on its route), so the library never weighs on other screens.
// The canvas is decorative to assistive technology: the figure's label summarises it and the
// days table under it (DaysTable) carries every number.
import { useEffect, useRef } from 'react';
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { dollars } from './model';
import { centsOrDollars } from '../../lib/money';

const DAY_S = 86_400;

export function UsageChart({ days, summary }: { days: { date: string; micros: number }[]; summary: string }) {
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    const el = box.current;
    if (!el || !days.length) return;
    const xs = days.map((d) => Date.parse(`${d.date}T00:00:00Z`) / 1000);
    const ys = days.map((d) => d.micros / 1_000_000);
    // days is not empty (checked above), so both ends exist.
    const [first = 0, last = first] = [xs[0], xs[xs.length - 1]];
    const accent = getComputedStyle(document.documentElement).getPropertyValue('--accent').trim() || '#1f5fbf';
    const bars = uPlot.paths.bars!({ size: [0.7, 40] });
    const plot = new uPlot(
      {
        width: Math.max(320, el.clientWidth),
        height: 260,
        tzDate: (ts) => uPlot.tzDate(new Date(ts * 1000), 'Etc/UTC'),
        legend: { show: false },
        cursor: { show: true, x: false, y: false, points: { show: false } },
        scales: { x: { time: true, range: [first - DAY_S / 2, last + DAY_S / 2] }, y: { range: (_u, _min, max) => [0, max > 0 ? max * 1.1 : 1] } },
        axes: [{}, { values: (_u, ticks) => ticks.map((t) => centsOrDollars(Math.round(t * 1_000_000))), size: 80 }],
        series: [{}, { label: 'Billed (US$)', fill: accent, stroke: accent, paths: bars, points: { show: false } }],
      },
      [xs, ys],
      el,
    );
    const resize = () => plot.setSize({ width: Math.max(320, el.clientWidth), height: 260 });
    window.addEventListener('resize', resize);
    return () => {
      window.removeEventListener('resize', resize);
      plot.destroy();
    };
  }, [days]);
  return (
    <figure className="usage-chart" role="img" aria-label={summary}>
      <div ref={box} aria-hidden="true" />
    </figure>
  );
}

/** The chart's text alternative: every day of the month with its amount, in a table that opens under the chart. */
export function DaysTable({ days, today }: { days: { date: string; micros: number }[]; today: string }) {
  return (
    <details className="usage-days">
      <summary>Spend by day (table)</summary>
      <table>
        <caption className="visually-hidden">Billed per day</caption>
        <thead>
          <tr>
            <th scope="col">Day (UTC)</th>
            <th scope="col">Billed</th>
          </tr>
        </thead>
        <tbody>
          {days.map((d) => (
            <tr key={d.date} data-date={d.date}>
              <td>
                {d.date}
                {d.date === today ? ' (today)' : ''}
              </td>
              <td>{dollars(d.micros)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </details>
  );
}
