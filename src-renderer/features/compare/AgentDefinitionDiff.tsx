/**
 * "Agent definition differs" (issue 28 item 3): when the two runs recorded different
 * agent definitions on `run.started`, each changed field (the prompts, the tool lists,
 * the profile, `[run]`) as a line diff, above the steps, so the change is named before
 * the divergence it caused. The same comparison `workbench runs diff` prints.
 */
import { memo, useMemo } from 'react';
import { diffAgentDefinitions } from '@shared/compare/definition-diff';
import { diffText } from '@shared/compare/text-diff';
import type { RunFacts } from '@shared/compare/types';
import { TEST_IDS } from '../../test-ids';
import { DiffText } from './DiffText';

export const AgentDefinitionDiff = memo(function AgentDefinitionDiff(props: {
  a: RunFacts;
  b: RunFacts;
}) {
  const { a, b } = props;
  const changed = useMemo(
    () => diffAgentDefinitions(a.agentDefinition, b.agentDefinition),
    [a.agentDefinition, b.agentDefinition],
  );
  if (!changed) return null;
  return (
    <section
      className="cmp-definition"
      data-testid={TEST_IDS.compareAgentDefinition}
      data-differs="true"
    >
      <h3>
        Agent definition differs: <span className="mono">{changed.a}</span> →{' '}
        <span className="mono">{changed.b}</span>
      </h3>
      {changed.changes.map((change) => {
        const parts = diffText(change.a, change.b, 'lines');
        return (
          <div
            key={change.key}
            className="cmp-field is-changed"
            data-testid={TEST_IDS.compareField}
            data-field={`definition.${change.key}`}
            data-changed="true"
          >
            <div className="cmp-field-label">{change.key}</div>
            <div className="cmp-cell side-a">
              <DiffText parts={parts} side="a" mode="lines" />
            </div>
            <div className="cmp-cell side-b">
              <DiffText parts={parts} side="b" mode="lines" />
            </div>
          </div>
        );
      })}
    </section>
  );
});
