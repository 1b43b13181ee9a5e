/**
 * Code as code: highlighted when its language is known, with optional line numbers, and
 * wrapping or not. The HTML comes only from highlight.js, which escapes the code.
 */
import { memo } from 'react';
import { highlight } from './highlight';

export const CodeBlock = memo(function CodeBlock(props: {
  code: string;
  language: string | null;
  hasLineNumbers?: boolean;
  isWrapped?: boolean;
  testId?: string;
}) {
  const { code, language, hasLineNumbers = false, isWrapped = true } = props;
  const html = highlight(code, language);
  const body = html ? (
    // highlight.js output: the escaped code inside its own spans, never markup from the model
    <code className={`hljs language-${language}`} dangerouslySetInnerHTML={{ __html: html }} />
  ) : (
    <code>{code}</code>
  );
  return (
    <div
      className={`code-block${isWrapped && !hasLineNumbers ? '' : ' is-nowrap'}`}
      data-testid={props.testId}
      data-language={language ?? undefined}
      data-highlighted={html ? 'true' : undefined}
    >
      {hasLineNumbers && (
        <pre className="code-gutter" aria-hidden="true">
          {lineNumbers(code)}
        </pre>
      )}
      <pre className="code-body">{body}</pre>
    </div>
  );
});

function lineNumbers(code: string): string {
  const count = code.split('\n').length;
  let text = '';
  for (let i = 1; i <= count; i++) text += i === count ? `${i}` : `${i}\n`;
  return text;
}
