import { useRef, useState } from 'react';
import type { ConfigImportResult } from '@shared/ipc';
import { TEST_IDS } from '../../test-ids';
import { useBridge } from '../../store/StoreProvider';

/** Import an OpenManus config.toml: first a dry run that says what would change, then save. */
export function ImportOpenManus() {
  const bridge = useBridge();
  const fileRef = useRef<HTMLInputElement>(null);
  const [file, setFile] = useState<{ name: string; content: string } | null>(null);
  const [report, setReport] = useState<ConfigImportResult | null>(null);
  const [state, setState] = useState<
    { status: 'idle' | 'working' | 'saved' } | { status: 'failed'; error: string }
  >({ status: 'idle' });

  const pick = async (picked: File | undefined) => {
    if (!picked) return;
    const content = await picked.text();
    setFile({ name: picked.name, content });
    setReport(null);
    setState({ status: 'working' });
    try {
      setReport(await bridge.importOpenManusConfig(content, picked.name, true));
      setState({ status: 'idle' });
    } catch (error) {
      setState({ status: 'failed', error: `${picked.name}: ${(error as Error).message}` });
    } finally {
      if (fileRef.current) fileRef.current.value = '';
    }
  };
  const confirm = async () => {
    if (!file) return;
    setState({ status: 'working' });
    try {
      const result = await bridge.importOpenManusConfig(file.content, file.name, false);
      setReport(result);
      setState({ status: 'saved' });
    } catch (error) {
      setState({ status: 'failed', error: (error as Error).message });
    }
  };

  return (
    <section className="import-box" aria-label="Import an OpenManus config">
      <h3>Import an OpenManus config.toml</h3>
      <p className="muted">
        Takes over its [llm] sections, browser and sandbox settings. You see what changes before
        anything is saved.
      </p>
      <input
        ref={fileRef}
        type="file"
        accept=".toml,text/plain"
        data-testid={TEST_IDS.configImportFile}
        onChange={(e) => void pick(e.target.files?.[0])}
      />
      {state.status === 'working' && <p className="muted">Reading…</p>}
      {state.status === 'failed' && (
        <p className="field-error" role="alert">
          {state.error}
        </p>
      )}
      {report && (
        <div className="import-report" data-testid={TEST_IDS.configImportReport}>
          <p>
            {report.isSaved ? 'Imported and saved' : 'Would import'} {report.imported.length}{' '}
            setting{report.imported.length === 1 ? '' : 's'}
            {report.imported.length > 0 && ': '}
            <span className="mono">{report.imported.join(', ')}</span>
          </p>
          {report.ignored.length > 0 && (
            <ul className="muted">
              {report.ignored.map((i) => (
                <li key={i.path}>
                  <span className="mono">{i.path}</span>: {i.reason}
                </li>
              ))}
            </ul>
          )}
          {!report.isSaved && (
            <button
              type="button"
              data-testid={TEST_IDS.configImportConfirm}
              onClick={() => void confirm()}
            >
              Import and save
            </button>
          )}
        </div>
      )}
    </section>
  );
}
