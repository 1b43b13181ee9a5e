import { TEST_IDS } from '../test-ids';
import { CopyButton } from './CopyButton';

/**
 * A folder on the machine that runs the workbench, selectable as one piece and with a copy
 * button (the clipboard may be refused on plain http; the text stays selectable).
 */
export function HostPath({ path }: { path: string }) {
  return (
    <span className="host-path">
      <code className="mono" data-testid={TEST_IDS.hostPath}>
        {path}
      </code>{' '}
      <CopyButton text={() => path} label="copy path" />
    </span>
  );
}
