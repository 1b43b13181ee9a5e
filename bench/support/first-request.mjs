// Preloaded into a measured process (node --import): prints, at its first HTTP request
// that is not to the Docker socket (the model call), the time since the process started,
// the CPU time it had used by then (less sensitive than the wall time to a loaded machine)
// and whether Docker's client, ssh2, protobufjs or gRPC had been loaded by then, for
// bench/startup.bench.ts. node:http (the runtime's model client) or undici (Node's fetch).
import { createRequire } from 'node:module';
import dc from 'node:diagnostics_channel';
import { writeSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import process from 'node:process';

const HEAVY = ['dockerode', 'docker-modem', 'ssh2', 'protobufjs', '@grpc/grpc-js'];
let said = false;
function note() {
  if (said) return;
  said = true;
  const at = performance.now();
  const cpu = process.cpuUsage();
  const loaded = Object.keys(createRequire(import.meta.url).cache)
    .filter((f) => HEAVY.some((name) => f.includes(`node_modules/${name}/`)))
    .map((f) => HEAVY.find((name) => f.includes(`node_modules/${name}/`)));
  writeSync(
    2,
    `\nWB_FIRST_REQUEST_MS=${at.toFixed(1)} WB_HEAVY=${[...new Set(loaded)].join(',')} WB_FIRST_REQUEST_CPU_MS=${((cpu.user + cpu.system) / 1000).toFixed(1)}\n`,
  );
}
dc.subscribe('http.client.request.start', ({ request }) => request.socketPath || note());
dc.subscribe('undici:request:create', note);
