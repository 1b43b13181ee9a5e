/**
 * For integration tests: a SandboxManager of its own (its own instance id) on the real
 * engine, sessions with temporary workspace folders, settings pointing at the local
 * image, and checks made with the docker CLI (an independent view of what exists).
 */
import { execFile } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { sandboxSchema, type SandboxSettings } from '../../config/schema';
import { Session } from '../../session/session';
import { LABELS } from '../container-policy';
import type { SandboxManager } from '../sandbox-manager';
import { LOCAL_SANDBOX_IMAGE } from './docker-env';

const run = promisify(execFile);

export function localSettings(overrides: Partial<SandboxSettings> = {}): SandboxSettings {
  return sandboxSchema.parse({ image: LOCAL_SANDBOX_IMAGE, ...overrides });
}

export function tempSession(id = `t-${Math.random().toString(36).slice(2, 8)}`): Session {
  return new Session(id, mkdtempSync(join(tmpdir(), `wb-ws-${id}-`)));
}

/** Ids of containers carrying all these labels, as the docker CLI sees them. */
export async function containersWith(labels: Record<string, string>): Promise<string[]> {
  const filters = Object.entries(labels).flatMap(([k, v]) => ['--filter', `label=${k}=${v}`]);
  const { stdout } = await run('docker', ['ps', '-aq', '--no-trunc', ...filters]);
  return stdout.split('\n').filter(Boolean);
}

export async function containersOf(manager: SandboxManager): Promise<string[]> {
  return containersWith({ [LABELS.instance]: manager.owner.instanceId });
}

export async function dockerInspect(id: string): Promise<Record<string, unknown>> {
  const { stdout } = await run('docker', ['inspect', id]);
  const [info] = JSON.parse(stdout) as Record<string, unknown>[];
  if (!info) throw new Error(`docker inspect ${id} returned nothing`);
  return info;
}

export async function docker(...args: string[]): Promise<string> {
  const { stdout } = await run('docker', args, { maxBuffer: 16 * 1024 * 1024 });
  return stdout;
}
