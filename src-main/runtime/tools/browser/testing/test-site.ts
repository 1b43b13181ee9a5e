/**
 * A small local web site for browser tests (plain node:http on 127.0.0.1, a random
 * port): a start page holding a value to read, a link to a second page, a second page
 * with a button that leads to a third, a form, a dropdown, a long page to scroll, a
 * link that opens a new tab, and a big index page of thousands of links (/big). The secret is chosen per server so a test cannot pass on
 * a value it did not read from the page.
 */
import { createServer, type Server } from 'node:http';
import { randomInt } from 'node:crypto';

export interface TestSite {
  url: string;
  secret: string;
  /** paths requested, in order */
  hits: string[];
  close(): Promise<void>;
}

/** Links on the /big page. */
export const BIG_PAGE_LINKS = 4000;
/** /sections: a page of this many 500 px sections of text (150,000 px tall) */
export const LONG_PAGE_SECTIONS = 300;

function page(title: string, body: string): string {
  return `<!doctype html><html><head><meta charset="utf-8"><title>${title}</title>
<style>body{font-family:sans-serif;margin:24px} .tall{height:3000px;background:linear-gradient(#fff,#ddd)}</style>
</head><body>${body}</body></html>`;
}

export async function startTestSite(): Promise<TestSite> {
  const secret = String(randomInt(100_000, 999_999));
  const hits: string[] = [];
  const pages: Record<string, (query: URLSearchParams) => string> = {
    '/': () =>
      page(
        'Start page',
        `<h1>Welcome</h1>
<p id="secret">The secret code is <strong>${secret}</strong>.</p>
<p><a href="/second">Go to the second page</a></p>
<p><a href="/form">Open the form</a></p>
<p><a href="/second" target="_blank">Second page in a new tab</a></p>
<p>${'This filler paragraph makes the page longer than a small extraction limit. '.repeat(4)}</p>`,
      ),
    '/second': () =>
      page(
        'Second page',
        `<h1>Second page</h1>
<p>You made it to page two.</p>
<button id="next" onclick="location.href='/third?from=button'">Continue to the third page</button>`,
      ),
    '/third': (q) =>
      page(
        'Third page',
        `<h1>Third page</h1><p>Arrived from: <span id="from">${escapeHtml(q.get('from') ?? 'nowhere')}</span>.</p>
<p>The final word is <em>lighthouse</em>.</p>`,
      ),
    '/form': () =>
      page(
        'Form page',
        `<h1>Order form</h1>
<form action="/submitted" method="get">
  <label>Name <input type="text" name="name" placeholder="Your name"></label>
  <label>Colour <select name="colour"><option value="r">Red</option><option value="g">Green</option><option value="b">Blue</option></select></label>
  <button type="submit">Send order</button>
</form>`,
      ),
    '/submitted': (q) =>
      page(
        'Order received',
        `<h1>Order received</h1><p>Name: <span id="name">${escapeHtml(q.get('name') ?? '')}</span></p>
<p>Colour: <span id="colour">${escapeHtml(q.get('colour') ?? '')}</span></p>`,
      ),
    // Like the Python docs' genindex-all.html: thousands of links, one per line.
    '/big': () =>
      page(
        'Big index',
        `<h1>Index of everything</h1><ul>${Array.from(
          { length: BIG_PAGE_LINKS },
          (_, i) => `<li><a href="/entry?n=${i}">Entry ${i} of the index</a></li>`,
        ).join('')}</ul>`,
      ),
    // A long article: every section has text, so the page's first characters are far from
    // the last section (150,000 px down), whose sentence names the secret.
    '/sections': () =>
      page(
        'Long article',
        Array.from(
          { length: LONG_PAGE_SECTIONS },
          (_, i) =>
            `<section style="height:500px"><h2>Section ${i + 1}</h2><p>${
              i + 1 === LONG_PAGE_SECTIONS
                ? `The answer of the last section is ${secret}.`
                : `Filler text of section ${i + 1}, about nothing in particular.`
            }</p></section>`,
        ).join(''),
      ),
    '/entry': (q) =>
      page('Entry', `<h1>Entry <span id="entry">${escapeHtml(q.get('n') ?? '')}</span></h1>`),
    '/long': () =>
      page(
        'Long page',
        `<h1>Top of a long page</h1><div class="tall"></div><p id="bottom">Bottom marker ${secret}</p>
<a href="/">Back to start</a>`,
      ),
  };

  const server: Server = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    hits.push(url.pathname);
    const render = pages[url.pathname];
    if (!render) {
      res.writeHead(404, { 'content-type': 'text/html' });
      res.end(page('Not found', '<h1>Not found</h1>'));
      return;
    }
    res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    res.end(render(url.searchParams));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (!address || typeof address === 'string') throw new Error('test site has no port');
  return {
    url: `http://127.0.0.1:${address.port}`,
    secret,
    hits,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}

function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
