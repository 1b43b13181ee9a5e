/** Saves text as a file through the browser's download (works in Electron and browser mode). */
export function downloadText(
  fileName: string,
  content: string,
  type = 'application/x-ndjson',
): void {
  const url = URL.createObjectURL(new Blob([content], { type }));
  const a = document.createElement('a');
  a.href = url;
  a.download = fileName;
  document.body.appendChild(a);
  a.click();
  a.remove();
  setTimeout(() => URL.revokeObjectURL(url), 10_000);
}
