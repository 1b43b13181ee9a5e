import type { ConfigView } from '@shared/ipc';
import type { SettingsSection } from '../../../store/ui-slice';
import { McpSettings } from './McpSettings';
import { SandboxImages } from './SandboxImages';
import { SectionForm } from './SectionForm';
import { BROWSER_FIELDS, SANDBOX_FIELDS, TELEMETRY_FIELDS } from './section-fields';

/** Settings → Sandbox, Browser, Telemetry or MCP servers. */
export function SectionsPage({
  config,
  section,
}: {
  config: ConfigView;
  section: SettingsSection;
}) {
  const sections = config.sections;
  switch (section) {
    case 'sandbox':
      return (
        <SectionForm
          section="sandbox"
          specs={SANDBOX_FIELDS}
          fields={sections.sandbox}
          below={{
            image: (set, current) => (
              <SandboxImages current={String(current)} onPick={(tag) => set(tag)} />
            ),
          }}
        />
      );
    case 'browser':
      return <SectionForm section="browser" specs={BROWSER_FIELDS} fields={sections.browser} />;
    case 'telemetry':
      return (
        <SectionForm section="telemetry" specs={TELEMETRY_FIELDS} fields={sections.telemetry} />
      );
    case 'mcp':
      return <McpSettings mcp={sections.mcp} />;
  }
}
