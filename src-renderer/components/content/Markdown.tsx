/**
 * A model's reply rendered as markdown: headings, emphasis, lists, quotes, tables, code
 * (highlighted), links and inline images. Built from tokens as React elements: raw HTML
 * is shown as text, links open only web and mail addresses (in a new window, without
 * access to ours), images only as data URLs.
 */
import { memo, type ReactNode } from 'react';
import type { Token, Tokens } from 'marked';
import { CodeBlock } from './CodeBlock';
import { languageOf } from './highlight';
import { markdownTokens, safeHref, safeImageSrc } from './markdown';

export const Markdown = memo(function Markdown(props: { text: string; testId?: string }) {
  return (
    <div className="markdown" data-testid={props.testId}>
      {blocks(markdownTokens(props.text))}
    </div>
  );
});

function blocks(tokens: readonly Token[]): ReactNode[] {
  return tokens.map((token, i) => block(token, i));
}

function block(token: Token, key: number): ReactNode {
  switch (token.type) {
    case 'space':
    case 'def':
      return null;
    case 'heading': {
      const t = token as Tokens.Heading;
      const Tag = `h${Math.min(6, Math.max(3, t.depth + 2))}` as 'h3' | 'h4' | 'h5' | 'h6';
      return <Tag key={key}>{inline(t.tokens)}</Tag>;
    }
    case 'paragraph':
      return <p key={key}>{inline((token as Tokens.Paragraph).tokens)}</p>;
    case 'text': {
      const t = token as Tokens.Text;
      return <p key={key}>{t.tokens ? inline(t.tokens) : t.text}</p>;
    }
    case 'code': {
      const t = token as Tokens.Code;
      return <CodeBlock key={key} code={t.text} language={languageOf(t.lang?.split(/\s/)[0])} />;
    }
    case 'blockquote':
      return <blockquote key={key}>{blocks((token as Tokens.Blockquote).tokens)}</blockquote>;
    case 'list': {
      const t = token as Tokens.List;
      const items = t.items.map((item, i) => (
        <li key={i}>
          {item.task && <input type="checkbox" checked={item.checked ?? false} disabled />}
          {listItem(item)}
        </li>
      ));
      return t.ordered ? (
        <ol key={key} start={typeof t.start === 'number' ? t.start : undefined}>
          {items}
        </ol>
      ) : (
        <ul key={key}>{items}</ul>
      );
    }
    case 'table': {
      const t = token as Tokens.Table;
      return (
        <table key={key}>
          <thead>
            <tr>
              {t.header.map((cell, i) => (
                <th key={i}>{inline(cell.tokens)}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {t.rows.map((row, r) => (
              <tr key={r}>
                {row.map((cell, i) => (
                  <td key={i}>{inline(cell.tokens)}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      );
    }
    case 'hr':
      return <hr key={key} />;
    case 'html':
      // raw HTML from the model is text, never markup
      return (
        <p key={key} className="md-raw">
          {(token as Tokens.HTML).raw}
        </p>
      );
    default:
      return <p key={key}>{token.raw}</p>;
  }
}

/** A list item's content: tight items hold inline text, loose ones paragraphs. */
function listItem(item: Tokens.ListItem): ReactNode {
  if (item.tokens.every((t) => t.type === 'text' || t.type === 'checkbox')) {
    return item.tokens.map((t, i) => {
      if (t.type === 'checkbox') return null;
      const text = t as Tokens.Text;
      return <span key={i}>{text.tokens ? inline(text.tokens) : text.text}</span>;
    });
  }
  return blocks(item.tokens.filter((t) => t.type !== 'checkbox'));
}

function inline(tokens: readonly Token[] | undefined): ReactNode[] {
  return (tokens ?? []).map((token, key) => {
    switch (token.type) {
      case 'text': {
        const t = token as Tokens.Text;
        return t.tokens ? <span key={key}>{inline(t.tokens)}</span> : t.text;
      }
      case 'escape':
        return (token as Tokens.Escape).text;
      case 'strong':
        return <strong key={key}>{inline((token as Tokens.Strong).tokens)}</strong>;
      case 'em':
        return <em key={key}>{inline((token as Tokens.Em).tokens)}</em>;
      case 'del':
        return <del key={key}>{inline((token as Tokens.Del).tokens)}</del>;
      case 'codespan':
        return <code key={key}>{(token as Tokens.Codespan).text}</code>;
      case 'br':
        return <br key={key} />;
      case 'link': {
        const t = token as Tokens.Link;
        const href = safeHref(t.href);
        if (!href) return <span key={key}>{inline(t.tokens)}</span>;
        return (
          <a
            key={key}
            href={href}
            target="_blank"
            rel="noopener noreferrer nofollow"
            title={href}
            onClick={(e) => e.stopPropagation()}
          >
            {inline(t.tokens)}
          </a>
        );
      }
      case 'image': {
        const t = token as Tokens.Image;
        const src = safeImageSrc(t.href);
        if (!src)
          return (
            <span key={key} className="md-image-ref">
              [image: {t.text || t.href}]
            </span>
          );
        return <img key={key} className="md-image" src={src} alt={t.text} />;
      }
      case 'html':
        return (token as Tokens.Tag).raw;
      default:
        return token.raw;
    }
  });
}
