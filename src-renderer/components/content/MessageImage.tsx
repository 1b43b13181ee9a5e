/**
 * A memory message's image (issue 17), as the timeline's row shows it (a thumbnail in a
 * box of fixed size, so the row's height is known before the image loads: the timeline is
 * virtualized) and as the inspector shows it (full width, with its type and size). The
 * caller gives the `src` (the store knows how the transport serves images). A history
 * that kept no bytes gets a labelled placeholder in the same box.
 */
import { useEffect, useState, type ReactNode } from 'react';
import type { EventImage } from '@shared/events';
import { TEST_IDS } from '../../test-ids';

/** The thumbnail's box; timeline.css gives `.img-thumb` the same size. */
export const THUMB_WIDTH = 96;
export const THUMB_HEIGHT = 64;

const MISSING = 'image file missing from this history';

/** `PNG · 1280×720 · 34 KB` */
export function describeImage(image: EventImage | undefined, mimeType: string): string {
  const type = (image?.mimeType ?? mimeType).replace(/^image\//, '').toUpperCase();
  const parts = [type];
  if (image?.width && image.height) parts.push(`${image.width}×${image.height}`);
  if (image) parts.push(formatBytes(image.bytes));
  return parts.join(' · ');
}

export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${Math.round(bytes / 1024)} KB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** Why there is no image to show: an old history, or one that did not keep it. */
export function ImagePlaceholder(props: {
  image: EventImage | undefined;
  mimeType: string;
  isLarge?: boolean;
}) {
  const reason = props.image?.notKept;
  return (
    <div
      className={props.isLarge ? 'img-placeholder is-large' : 'img-placeholder img-thumb'}
      data-testid={TEST_IDS.imagePlaceholder}
      data-reason={reason === undefined ? 'old' : 'not-kept'}
      title={describeImage(props.image, props.mimeType)}
    >
      {reason === undefined ? 'image not kept in this history' : `image not kept: ${reason}`}
    </div>
  );
}

export function ImageThumb(props: {
  image: EventImage & { ref: string };
  src: string | undefined;
  error?: string;
}) {
  const label = describeImage(props.image, props.image.mimeType);
  // an imported run names files this history does not have: said in the box, no broken icon
  const [isBroken, setBroken] = useState(false);
  const isMissing = isBroken || props.error !== undefined;
  return (
    <span
      className="img-thumb"
      data-testid={TEST_IDS.messageImage}
      data-ref={props.image.ref}
      data-mime={props.image.mimeType}
      data-missing={isMissing ? 'true' : undefined}
      title={props.error ?? label}
    >
      {isMissing ? (
        <span className="img-placeholder">{MISSING}</span>
      ) : (
        props.src !== undefined && (
          <img
            src={props.src}
            alt={`Image (${label})`}
            width={THUMB_WIDTH}
            height={THUMB_HEIGHT}
            loading="lazy"
            decoding="async"
            onError={() => setBroken(true)}
          />
        )
      )}
    </span>
  );
}

export function ImageFull(props: {
  image: EventImage & { ref: string };
  src: string | undefined;
  error?: string;
  onOpen(): void;
}) {
  const { image } = props;
  const label = describeImage(image, image.mimeType);
  const [isBroken, setBroken] = useState(false);
  const isMissing = isBroken || props.error !== undefined;
  return (
    <figure
      className="img-full"
      data-testid={TEST_IDS.messageImage}
      data-ref={image.ref}
      data-mime={image.mimeType}
      data-missing={isMissing ? 'true' : undefined}
    >
      {isMissing ? (
        <div className="img-placeholder is-large">{MISSING}</div>
      ) : (
        <button
          type="button"
          className="img-open"
          data-testid={TEST_IDS.imageOpen}
          title="Open large"
          onClick={props.onOpen}
          disabled={props.src === undefined}
          // the image's own proportions, so the inspector does not jump when it loads
          style={
            image.width && image.height ? { aspectRatio: `${image.width} / ${image.height}` } : {}
          }
        >
          {props.src !== undefined && (
            <img
              src={props.src}
              alt={`Image (${label})`}
              decoding="async"
              onError={() => setBroken(true)}
            />
          )}
        </button>
      )}
      <figcaption className="muted">
        {label}
        {props.error ? ` · ${props.error}` : ''}
      </figcaption>
    </figure>
  );
}

/** The image large, over the window; Escape or a click closes it. */
export function ImageLightbox(props: { src: string; label: string; onClose(): void }): ReactNode {
  const { onClose } = props;
  useEffect(() => {
    const onKey = (event: KeyboardEvent) => {
      if (event.key === 'Escape') onClose();
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [onClose]);
  return (
    <div
      className="img-lightbox"
      role="dialog"
      aria-modal="true"
      aria-label={props.label}
      data-testid={TEST_IDS.imageLightbox}
      onClick={onClose}
    >
      <img src={props.src} alt={props.label} />
    </div>
  );
}
