// Preloaded into a measured process (node --import): prints its peak resident set size
// (kilobytes, from getrusage) to stderr as it exits, for bench/startup.bench.ts.
import { writeSync } from 'node:fs';
import process from 'node:process';

process.on('exit', () => {
  writeSync(2, `\nWB_MAX_RSS_KB=${process.resourceUsage().maxRSS}\n`);
});
