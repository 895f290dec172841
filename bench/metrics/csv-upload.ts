/**
 * 100,000-row CSV upload end to end (multipart request to answer) vs papaparse alone
 * parsing the same text in process, and the emulator's peak RSS during the upload.
 */
import { writeFileSync } from 'node:fs';
import Papa from 'papaparse';
import { gc, median, now, RUNS, rssOf, startEmulatorChild } from '../util.js';
import { createCampaign, recipientsCsv, upload } from './csv-data.js';
import { fmt, type Row } from './types.js';

const ROWS = 100_000;

/** Resets the kernel's peak-RSS mark (VmHWM) of a process to its current RSS. */
function resetPeak(pid: number): void {
  writeFileSync(`/proc/${pid}/clear_refs`, '5');
}

export async function csvUpload(): Promise<Row> {
  const csv = recipientsCsv(ROWS);
  const text = new TextDecoder().decode(csv);
  const papa: number[] = [];
  for (let i = 0; i < RUNS + 1; i++) {
    gc();
    const started = now();
    const parsed = Papa.parse(text, { header: true, skipEmptyLines: true });
    if (i > 0) papa.push(now() - started);
    if (parsed.data.length !== ROWS) throw new Error(`papaparse read ${parsed.data.length} rows`);
  }

  // A fresh emulator per run, so the peak RSS is the upload's alone; a 1,000-row upload
  // first warms up the JIT on the same path.
  const warmUp = recipientsCsv(1_000);
  const times: number[] = [];
  const peaks: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const emulator = await startEmulatorChild();
    try {
      await upload(emulator.url, await createCampaign(emulator.url, `warm-up-${i}`), warmUp, 1_000);
      const id = await createCampaign(emulator.url, `csv-${i}`);
      resetPeak(emulator.pid);
      times.push(await upload(emulator.url, id, csv, ROWS));
      peaks.push(rssOf(emulator.pid).peakMb);
    } finally {
      await emulator.stop();
    }
  }
  const ratio = median(times) / median(papa);
  const peak = Math.max(...peaks);
  return {
    metric: `CSV upload, ${ROWS.toLocaleString('en')} rows (${(csv.length / 1e6).toFixed(1)} MB)`,
    value: `${fmt(median(times), 0)} ms, peak RSS ${fmt(peak, 0)} MB`,
    baseline: `${fmt(median(papa), 0)} ms (papaparse alone)`,
    ratio: `${fmt(ratio, 2)}x`,
    target: '<= 2x, RSS < 400 MB',
    pass: ratio <= 2 && peak < 400,
    note:
      `upload runs ${times.map((t) => fmt(t, 0)).join('/')} ms; ` +
      `peak RSS per run ${peaks.map((p) => fmt(p, 0)).join('/')} MB`,
  };
}
