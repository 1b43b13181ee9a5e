/**
 * A tool call's arguments, shown by what they are (tool-args-view.ts): highlighted code,
 * a file edit as a diff, or JSON.
 */
import { memo, useMemo } from 'react';
import { diffText } from '@shared/compare/text-diff';
import { TEST_IDS } from '../../../test-ids';
import { CodeBlock } from '../../../components/content/CodeBlock';
import { argsView } from './tool-args-view';

export const ToolArguments = memo(function ToolArguments(props: {
  tool: string;
  args: unknown;
  hasLineNumbers: boolean;
}) {
  const view = useMemo(() => argsView(props.tool, props.args), [props.tool, props.args]);
  return (
    <div className="tool-args" data-testid={TEST_IDS.toolArgs} data-view={view.kind}>
      {view.kind !== 'json' && view.rest.length > 0 && (
        <dl className="tool-args-rest">
          {view.rest.map(([k, v]) => (
            <div key={k}>
              <dt>{k}</dt>
              <dd className="mono">{v}</dd>
            </div>
          ))}
        </dl>
      )}
      {view.kind === 'code' && (
        <CodeBlock
          code={view.code}
          language={view.language}
          hasLineNumbers={props.hasLineNumbers}
          testId={TEST_IDS.toolArgsCode}
        />
      )}
      {view.kind === 'diff' && <EditDiff before={view.before} after={view.after} />}
      {view.kind === 'json' && <CodeBlock code={view.text} language="json" />}
    </div>
  );
});

function EditDiff({ before, after }: { before: string; after: string }) {
  const lines = useMemo(() => {
    const out: { kind: 'same' | 'added' | 'removed'; text: string }[] = [];
    for (const part of diffText(before, after, 'lines')) {
      const text = part.text.endsWith('\n') ? part.text.slice(0, -1) : part.text;
      for (const line of text.split('\n')) out.push({ kind: part.kind, text: line });
    }
    return out;
  }, [before, after]);
  return (
    <pre className="code-diff" data-testid={TEST_IDS.toolArgsDiff}>
      {lines.map((line, i) => (
        <div key={i} className={`diff-line diff-${line.kind}`}>
          <span className="diff-sign" aria-hidden="true">
            {line.kind === 'added' ? '+' : line.kind === 'removed' ? '-' : ' '}
          </span>
          {line.text}
        </div>
      ))}
    </pre>
  );
}
