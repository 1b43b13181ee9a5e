/**
 * One scorer's regression chart (issue 31): the experiments of a dataset left to right in
 * time, a line per variant (its mean, the 95 % interval as a bar), on a 0-1 scale; a point
 * where the variant's agent, profile or the dataset's version changed since the line's
 * previous point is ringed and says what changed. Plain SVG: no chart package.
 */
import type { ExperimentTrendView } from '@shared/domain/experiments';
import { changesAt } from '@shared/experiments/experiment-trend';
import { TEST_IDS } from '../../test-ids';

const WIDTH = 640;
const HEIGHT = 220;
const PAD = { left: 40, right: 16, top: 12, bottom: 28 };
const COLORS = ['#2f6fde', '#d9480f', '#2b8a3e', '#862e9c', '#c2255c', '#0b7285'];

export function RegressionChart({
  trend,
  chart,
  onOpen,
}: {
  trend: ExperimentTrendView;
  chart: ExperimentTrendView['scorers'][number];
  onOpen(experimentId: string): void;
}) {
  const ids = trend.experiments.map((e) => e.experimentId);
  const plotW = WIDTH - PAD.left - PAD.right;
  const plotH = HEIGHT - PAD.top - PAD.bottom;
  const x = (experimentId: string) => {
    const i = ids.indexOf(experimentId);
    return PAD.left + (ids.length <= 1 ? plotW / 2 : (i / (ids.length - 1)) * plotW);
  };
  const y = (v: number) => PAD.top + (1 - Math.min(1, Math.max(0, v))) * plotH;
  return (
    <figure
      className="regression-chart"
      data-testid={TEST_IDS.regressionChart}
      data-scorer={chart.scorer}
    >
      <figcaption>
        <strong>{chart.scorer}</strong>{' '}
        {chart.lines.map((line, n) => (
          <span
            key={line.variant}
            className="regression-legend"
            style={{ color: COLORS[n % COLORS.length] }}
          >
            ■ {line.variant}{' '}
          </span>
        ))}
      </figcaption>
      <svg
        viewBox={`0 0 ${WIDTH} ${HEIGHT}`}
        width="100%"
        role="img"
        aria-label={`${chart.scorer} over ${ids.length} experiments`}
      >
        {[0, 0.25, 0.5, 0.75, 1].map((v) => (
          <g key={v}>
            <line x1={PAD.left} x2={WIDTH - PAD.right} y1={y(v)} y2={y(v)} stroke="#ddd" />
            <text x={PAD.left - 6} y={y(v) + 4} textAnchor="end" fontSize="10" fill="#666">
              {v.toFixed(2)}
            </text>
          </g>
        ))}
        {trend.experiments.map((e, i) => (
          <text
            key={e.experimentId}
            x={x(e.experimentId)}
            y={HEIGHT - 8}
            textAnchor="middle"
            fontSize="10"
            fill="#666"
          >
            {i + 1}
          </text>
        ))}
        {chart.lines.map((line, n) => {
          const color = COLORS[n % COLORS.length];
          const path = line.points
            .map(
              (p, i) =>
                `${i === 0 ? 'M' : 'L'}${x(p.experimentId).toFixed(1)},${y(p.mean).toFixed(1)}`,
            )
            .join(' ');
          return (
            <g
              key={line.variant}
              data-testid={TEST_IDS.regressionLine}
              data-variant={line.variant}
              data-points={line.points.length}
            >
              <path d={path} fill="none" stroke={color} strokeWidth="2" />
              {line.points.map((p, i) => {
                const changes = changesAt(line.points, i);
                const cx = x(p.experimentId);
                return (
                  <g
                    key={p.experimentId}
                    className="regression-point"
                    onClick={() => onOpen(p.experimentId)}
                  >
                    {p.interval && (
                      <line
                        x1={cx}
                        x2={cx}
                        y1={y(p.interval.low)}
                        y2={y(p.interval.high)}
                        stroke={color}
                        opacity="0.4"
                        strokeWidth="4"
                      />
                    )}
                    <circle cx={cx} cy={y(p.mean)} r="4" fill={color}>
                      <title>
                        {`${line.variant}: ${p.mean.toFixed(2)} over ${p.n} runs (${p.agent}, ${p.profile ?? "agent's own profile"}, dataset ${p.datasetVersion})${changes.length > 0 ? `\nchanged: ${changes.join('; ')}` : ''}`}
                      </title>
                    </circle>
                    {changes.length > 0 && (
                      <circle
                        data-testid={TEST_IDS.regressionChange}
                        cx={cx}
                        cy={y(p.mean)}
                        r="8"
                        fill="none"
                        stroke={color}
                        strokeWidth="2"
                        strokeDasharray="3 2"
                      />
                    )}
                  </g>
                );
              })}
            </g>
          );
        })}
      </svg>
    </figure>
  );
}
