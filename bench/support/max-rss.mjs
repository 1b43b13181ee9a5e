// Preloaded into a measured process (node --import): prints its peak resident set size
// (kilobytes) and the CPU time it used to stderr as it exits, for bench/startup.bench.ts.
// On Linux this is VmHWM from /proc/self/status: getrusage's maxRSS is not the process's
// own figure there (it starts from the forking parent's RSS, so after the diff bench had
// grown `npm run bench` to 482 MiB every child read 482 MiB, `node -e 0` included).
import { readFileSync, writeSync } from 'node:fs';
import process from 'node:process';

function peakKb() {
  try {
    const hwm = /^VmHWM:\s+(\d+) kB$/m.exec(readFileSync('/proc/self/status', 'utf8'));
    if (hwm) return Number(hwm[1]);
  } catch {
    // not Linux: getrusage below
  }
  return process.resourceUsage().maxRSS;
}

process.on('exit', () => {
  const cpu = process.cpuUsage();
  writeSync(
    2,
    `\nWB_MAX_RSS_KB=${peakKb()} WB_CPU_MS=${((cpu.user + cpu.system) / 1000).toFixed(1)}\n`,
  );
});
