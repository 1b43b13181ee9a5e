/**
 * Settings → Telemetry (docs/configuration.md, `[telemetry]`): `config:sections` shows
 * `otlp_endpoint` and `receiver_port` with where each comes from, `config:save-sections`
 * writes them keeping the file's comments and other keys (`otlp_headers`), '' and 0 unset
 * them, and a value the schema refuses is named by its key.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { AppApiError } from '@shared/ipc';
import { serve } from './testing/ws-contract-fixture';

describe('[telemetry] in Settings', () => {
  it('shows, saves, unsets and refuses [telemetry] keys', async () => {
    const { api, home } = await serve(
      '[telemetry]\n# the team collector\notlp_headers = { Authorization = "env:OTLP_AUTH" }\n',
    );
    let view = await api.getConfig({});
    expect(view.sections.telemetry).toEqual({
      otlp_endpoint: { value: '', source: 'default' },
      receiver_port: { value: 0, source: 'default' },
    });
    view = await api.saveConfigSections({
      telemetry: { otlp_endpoint: 'http://localhost:4318', receiver_port: 4318 },
    });
    expect(view.sections.telemetry).toEqual({
      otlp_endpoint: { value: 'http://localhost:4318', source: 'file' },
      receiver_port: { value: 4318, source: 'file' },
    });
    const text = readFileSync(join(home, 'config.toml'), 'utf8');
    expect(text).toContain('# the team collector');
    expect(text).toContain('env:OTLP_AUTH');
    expect(text).toMatch(/otlp_endpoint = "http:\/\/localhost:4318"/);

    view = await api.saveConfigSections({ telemetry: { otlp_endpoint: '', receiver_port: 0 } });
    expect(view.sections.telemetry.otlp_endpoint).toEqual({ value: '', source: 'default' });
    expect(view.sections.telemetry.receiver_port).toEqual({ value: 0, source: 'default' });
    expect(readFileSync(join(home, 'config.toml'), 'utf8')).not.toContain('otlp_endpoint');

    const bad = await api
      .saveConfigSections({ telemetry: { otlp_endpoint: 'localhost:4318' } })
      .catch((e: unknown) => e);
    expect((bad as AppApiError).code).toBe('invalid_input');
    expect((bad as AppApiError).issues?.map((i) => i.path)).toContain('telemetry.otlp_endpoint');
  });
});
