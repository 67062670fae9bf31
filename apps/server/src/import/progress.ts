/** A one-line progress bar on stderr, drawn only for a person at a terminal (not in logs). */
export function progressBar(stream: NodeJS.WriteStream = process.stderr) {
  const enabled = Boolean(stream.isTTY);
  let last = -1;
  return {
    update(done: number, total: number, label: string): void {
      if (!enabled || total === 0) return;
      const pct = Math.floor((done / total) * 100);
      if (pct === last && done !== total) return;
      last = pct;
      stream.write(`\r${renderBar(done, total, 30)} ${label.padEnd(20)}`);
    },
    end(): void {
      if (enabled && last >= 0) stream.write('\n');
    },
  };
}

export function renderBar(done: number, total: number, width: number): string {
  const ratio = total ? Math.min(1, done / total) : 1;
  const filled = Math.round(ratio * width);
  return `[${'#'.repeat(filled)}${'.'.repeat(width - filled)}] ${String(Math.floor(ratio * 100)).padStart(3)}% ${done}/${total}`;
}
