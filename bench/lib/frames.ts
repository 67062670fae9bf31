// Reading a viewer's frames cheaply, so the load generator's own cost per message is the same
// (and small) whatever the server sent.

const SCORE_KEY = Buffer.from('"homeScore":');

/** The score in a frame's raw bytes, without decoding it; -1 when it has none. */
export function scoreOf(data: Buffer): number {
  const at = data.indexOf(SCORE_KEY);
  if (at === -1) return -1;
  let n = 0;
  for (let i = at + SCORE_KEY.length; i < data.length; i++) {
    const c = data[i]!;
    if (c < 48 || c > 57) break;
    n = n * 10 + (c - 48);
  }
  return n;
}
