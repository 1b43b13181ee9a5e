/** Prints one benchmark's figures as an aligned table and returns them for the summary. */
export interface Figure {
  label: string;
  value: number;
  unit: string;
  note?: string;
}

export interface BenchResult {
  name: string;
  figures: Figure[];
}

export function report(name: string, figures: Figure[]): BenchResult {
  console.log(`\n## ${name}`);
  const width = Math.max(...figures.map((f) => f.label.length));
  for (const f of figures) {
    const value = Math.abs(f.value) >= 100 ? f.value.toFixed(0) : f.value.toFixed(2);
    console.log(
      `  ${f.label.padEnd(width)}  ${value.padStart(10)} ${f.unit}${f.note ? `  (${f.note})` : ''}`,
    );
  }
  return { name, figures };
}
