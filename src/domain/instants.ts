/**
 * The instants the emulator clock can stand at and campaigns can be scheduled for: what a
 * Date can hold (±8.64e15 ms from 1970, about years -271821 to 275760). Past that a Date is
 * invalid and the clock could not be read as ISO text at all.
 */
export const LATEST_INSTANT_MS = 8.64e15;
export const EARLIEST_INSTANT_MS = -8.64e15;

/** Why `ms` cannot be an instant of the emulator clock, or null when it can. */
export function instantProblem(ms: number): string | null {
  if (!Number.isFinite(ms)) return 'is not a valid instant';
  if (ms > LATEST_INSTANT_MS)
    return 'is after +275760-09-13T00:00:00.000Z, the latest instant a date can hold (8.64e15 ms)';
  if (ms < EARLIEST_INSTANT_MS)
    return 'is before -271821-04-20T00:00:00.000Z, the earliest instant a date can hold (-8.64e15 ms)';
  return null;
}
