/**
 * Lines of a byte stream (a request's body), counted against a size limit as they come: an
 * imported trace is read line by line, never as one string.
 */

/** The stream's lines (without "\n" or "\r\n"); `tooLarge()` is thrown once more than `maxBytes` came. */
export async function* linesOfBytes(
  chunks: AsyncIterable<Uint8Array>,
  maxBytes: number,
  tooLarge: () => Error,
): AsyncGenerator<string> {
  const decoder = new TextDecoder();
  // The start of the line being read, in pieces: one long line never costs a rescan per chunk.
  let pending: string[] = [];
  let bytes = 0;
  const line = (last: string) => {
    const text = pending.join('') + last;
    pending = [];
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  };
  for await (const chunk of chunks) {
    bytes += chunk.byteLength;
    if (bytes > maxBytes) throw tooLarge();
    const text = decoder.decode(chunk, { stream: true });
    let start = 0;
    for (let end = text.indexOf('\n'); end !== -1; end = text.indexOf('\n', start)) {
      yield line(text.slice(start, end));
      start = end + 1;
    }
    if (start < text.length) pending.push(text.slice(start));
  }
  const rest = line(decoder.decode());
  if (rest !== '') yield rest;
}
