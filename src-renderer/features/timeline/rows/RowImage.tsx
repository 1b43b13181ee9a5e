import type { EventImage } from '@shared/events';
import type { MessageItem } from '../../../store/timeline/types';
import { useImageSrc } from '../../../store/use-image-src';
import { useSettled } from '../../../lib/use-settled';
import { ImagePlaceholder, ImageThumb } from '../../../components/content/MessageImage';

/**
 * A row flung past exists for a few frames: its screenshot is loaded and decoded only
 * once the row has stayed this long, not for every row a fast scroll passes. (Decoding
 * 1280×720 screenshots on a fling took the cores the timeline needed: in the ui
 * benchmark, 1,000 steps with a screenshot every 10th step had scroll tasks of 91 ms
 * against 32 ms without.)
 */
const SETTLE_MS = 150;

/**
 * The image of a message row: a thumbnail when the history kept it, else a placeholder
 * of the same size. Only rows with an image render this (and ask for a source).
 */
export function RowImage({ item }: { item: MessageItem }) {
  const ref = item.image?.ref;
  if (item.image && ref !== undefined) return <KeptThumb image={{ ...item.image, ref }} />;
  return <ImagePlaceholder image={item.image} mimeType={item.imageMimeType ?? ''} />;
}

function KeptThumb({ image }: { image: EventImage & { ref: string } }) {
  const isSettled = useSettled(SETTLE_MS);
  return isSettled ? <LoadedThumb image={image} /> : <ImageThumb image={image} src={undefined} />;
}

function LoadedThumb({ image }: { image: EventImage & { ref: string } }) {
  const source = useImageSrc(image.ref);
  return (
    <ImageThumb
      image={image}
      src={source.status === 'ready' ? source.src : undefined}
      {...(source.status === 'failed' ? { error: source.error } : {})}
    />
  );
}
