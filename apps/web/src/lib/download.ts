/** DESIGN §8: the CSV is downloaded as a file (the original printed it to the console). */
export function downloadText(fileName: string, text: string, type = 'text/csv;charset=utf-8') {
  const url = URL.createObjectURL(new Blob([text], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  a.hidden = true;
  document.body.append(a);
  a.click();
  a.remove();
  // The download has taken its copy by then; the URL would otherwise live as long as the tab.
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
