/**
 * A model's reply rendered as markdown: headings, emphasis, lists, quotes, tables, code
 * (highlighted), links and inline images. The HTML is built by markdown-html.ts, which
 * escapes everything the model wrote: raw HTML in a reply is shown as text, links open
 * only web and mail addresses (in a new window, without access to ours), images only as
 * data URLs.
 */
import { memo, type MouseEvent } from 'react';
import { markdownHtml } from './markdown-html';

export const Markdown = memo(function Markdown(props: { text: string; testId?: string }) {
  return (
    <div
      className="markdown"
      data-testid={props.testId}
      onClick={keepLinkClicks}
      // markdown-html.ts: every piece of the model's text in it is escaped
      dangerouslySetInnerHTML={{ __html: markdownHtml(props.text) }}
    />
  );
});

/** A link opens its page; the click does not also select the timeline row it is in. */
function keepLinkClicks(event: MouseEvent<HTMLDivElement>): void {
  if (event.target instanceof Element && event.target.closest('a')) event.stopPropagation();
}
