/**
 * How every command-line number is read (flags and environment variables alike): digits
 * only, surrounding spaces allowed. `Number()` alone would turn "1e3" into 1000, "0x10"
 * into 16 and " " into 0 (a random port), so the emulator's flags and its tools' flags would
 * each accept a different set of spellings.
 * Returns undefined for anything but digits.
 */
export function wholeNumberOf(text: string): number | undefined {
  const trimmed = text.trim();
  // Past 2^53 the value is only near the digits: each caller's range check refuses it.
  return /^\d+$/.test(trimmed) ? Number(trimmed) : undefined;
}
