// Runs an MCP server over stdio and appends every line the client writes to it to a log
// file, so a test can see what reached the server (a `notifications/cancelled`).
//   node stdio-recorder.mjs LOG_FILE COMMAND [ARGS...]
import { spawn } from 'node:child_process';
import { appendFileSync } from 'node:fs';
import process from 'node:process';

const [log, command, ...args] = process.argv.slice(2);
const child = spawn(command, args, { stdio: ['pipe', 'inherit', 'inherit'] });
let pending = '';
process.stdin.on('data', (chunk) => {
  child.stdin.write(chunk);
  pending += chunk.toString('utf8');
  const lines = pending.split('\n');
  pending = lines.pop() ?? '';
  for (const line of lines) if (line.trim()) appendFileSync(log, `${line}\n`);
});
process.stdin.on('end', () => child.stdin.end());
child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
for (const sig of ['SIGTERM', 'SIGINT']) process.on(sig, () => child.kill(sig));
