/**
 * One row of the bench table: the metric, its measured value, the baseline it is compared
 * with, the ratio (or absolute figure) and the target.
 */
export interface Row {
  metric: string;
  value: string;
  baseline: string;
  ratio: string;
  target: string;
  /** undefined when the metric could not be measured */
  pass: boolean | undefined;
  note?: string;
}

export const unavailable = (metric: string, target: string, note: string): Row => ({
  metric,
  value: 'n/a',
  baseline: 'n/a',
  ratio: 'n/a',
  target,
  pass: undefined,
  note,
});

export const fmt = (n: number, digits = 1) => (Number.isFinite(n) ? n.toFixed(digits) : 'n/a');
