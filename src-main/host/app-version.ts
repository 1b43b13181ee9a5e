/**
 * The app's version from package.json, found by walking up from this module (its place
 * differs between the sources, the built CLI and the packaged app).
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

let cached: string | undefined;

export function readAppVersion(): string {
  if (cached) return cached;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (let i = 0; i < 6; i++) {
    const file = join(dir, 'package.json');
    if (existsSync(file)) {
      try {
        const pkg = JSON.parse(readFileSync(file, 'utf8')) as { name?: string; version?: string };
        if (pkg.name === 'agent-workbench' && pkg.version) return (cached = pkg.version);
      } catch {
        // not ours; keep walking
      }
    }
    dir = dirname(dir);
  }
  return (cached = '0.0.0');
}
