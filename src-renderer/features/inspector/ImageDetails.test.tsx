/**
 * Images inline (issue 17 item 3): a message's image is a thumbnail in a box of fixed
 * size in its timeline row (lazy, async decoding) and full width in the inspector with
 * its type and size; a click opens it large. A history that kept no bytes shows a
 * labelled placeholder instead.
 */
import { act, fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { EventImage } from '@shared/events';
import { createMemoryApi } from '../../testing/memory-api';
import { flush, renderApp } from '../../testing/render-app';
import { RunScript } from '../../testing/run-script';

const PNG_BASE64 =
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==';
const REF = `${'d'.repeat(64)}.png`;

function runWithImage(image: EventImage | undefined): RunScript {
  const s = new RunScript('r-img').start('Look at the page');
  s.addStep({ content: 'taking a screenshot', calls: [{ name: 'browser_use', args: {} }] });
  s.message({
    role: 'user',
    content: 'Image returned by the `browser_use` call call_1 (image/png).',
    imageMimeType: 'image/png',
    ...(image ? { image } : {}),
  });
  s.endStep();
  return s.finish();
}

async function open(script: RunScript) {
  const api = createMemoryApi();
  api.history.set(script.runId, script.events);
  api.images.set(`${script.runId}/${REF}`, {
    mimeType: 'image/png',
    data: PNG_BASE64,
    bytes: 75,
  });
  await renderApp(api);
  await act(async () => fireEvent.click(screen.getByTestId('run-history-item')));
  await flush();
  await flush();
  return api;
}

/** A row's thumbnail loads once the row has stayed in view a moment (RowImage.tsx). */
async function settle() {
  await act(() => new Promise((resolve) => setTimeout(resolve, 200)));
  await flush();
}

const imageRow = () =>
  screen
    .getAllByTestId('timeline-message')
    .find((row) => row.textContent?.includes('Image returned by'))!;

describe('images inline', () => {
  const kept: EventImage = {
    mimeType: 'image/png',
    bytes: 34_816,
    width: 1280,
    height: 720,
    ref: REF,
  };

  it('shows a lazy thumbnail of fixed size in the row, loaded over the contract', async () => {
    const api = await open(runWithImage(kept));
    const thumb = within(imageRow()).getByTestId('message-image');
    expect(thumb.getAttribute('data-ref')).toBe(REF);
    // a row flung past loads nothing: the box waits until the row has settled
    expect(thumb.querySelector('img')).toBeNull();
    expect(api.calls.filter((c) => c.method === 'getRunImage')).toEqual([]);
    await settle();
    const img = within(imageRow()).getByTestId('message-image').querySelector('img')!;
    expect(img.getAttribute('loading')).toBe('lazy');
    expect(img.getAttribute('decoding')).toBe('async');
    expect(img.getAttribute('width')).toBe('96');
    expect(img.getAttribute('height')).toBe('64');
    expect(img.getAttribute('src')).toBe(`data:image/png;base64,${PNG_BASE64}`);
    expect(api.calls.filter((c) => c.method === 'getRunImage')).toEqual([
      { method: 'getRunImage', input: { runId: 'r-img', ref: REF } },
    ]);
    // rows without an image ask for nothing and render no image box
    const others = screen.getAllByTestId('timeline-message').filter((r) => r !== imageRow());
    for (const row of others) expect(row.querySelector('.img-thumb')).toBeNull();
  });

  it('shows the image full width in the inspector with its type and size; a click opens it large', async () => {
    await open(runWithImage(kept));
    fireEvent.click(imageRow());
    await flush();
    const inspector = screen.getByTestId('inspector');
    const figure = within(inspector).getByTestId('message-image');
    expect(figure.textContent).toContain('PNG · 1280×720 · 34 KB');
    expect(figure.querySelector('img')!.getAttribute('src')).toBe(
      `data:image/png;base64,${PNG_BASE64}`,
    );
    expect(screen.queryByTestId('image-lightbox')).toBeNull();
    fireEvent.click(within(inspector).getByTestId('image-open'));
    const lightbox = screen.getByTestId('image-lightbox');
    expect(lightbox.querySelector('img')!.getAttribute('src')).toContain('data:image/png');
    fireEvent.keyDown(window, { key: 'Escape' });
    expect(screen.queryByTestId('image-lightbox')).toBeNull();
  });

  it('labels an image an old history did not keep, in the row and in the inspector', async () => {
    const api = await open(runWithImage(undefined));
    const placeholder = within(imageRow()).getByTestId('image-placeholder');
    expect(placeholder.textContent).toBe('image not kept in this history');
    expect(placeholder.getAttribute('data-reason')).toBe('old');
    fireEvent.click(imageRow());
    await flush();
    expect(
      within(screen.getByTestId('inspector')).getByTestId('image-placeholder').textContent,
    ).toBe('image not kept in this history');
    expect(api.calls.some((c) => c.method === 'getRunImage')).toBe(false);
  });

  it('says why an image was not kept', async () => {
    await open(
      runWithImage({
        mimeType: 'image/png',
        bytes: 9_000_000,
        notKept: 'larger than the 5 MB an image may take',
      }),
    );
    const placeholder = within(imageRow()).getByTestId('image-placeholder');
    expect(placeholder.getAttribute('data-reason')).toBe('not-kept');
    expect(placeholder.textContent).toBe('image not kept: larger than the 5 MB an image may take');
  });

  it('says when the history names a file it does not have (an imported run)', async () => {
    const missing = { ...kept, ref: `${'f'.repeat(64)}.png` };
    await open(runWithImage(missing));
    await settle();
    const thumb = within(imageRow()).getByTestId('message-image');
    expect(thumb.getAttribute('data-missing')).toBe('true');
    expect(thumb.textContent).toBe('image file missing from this history');
    expect(thumb.querySelector('img')).toBeNull();
  });
});
