import type { EventImage } from '@shared/events';
import type { MessageItem } from '../../../store/timeline/types';
import { useImageSrc } from '../../../store/use-image-src';
import { ImagePlaceholder, ImageThumb } from '../../../components/content/MessageImage';

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
  const source = useImageSrc(image.ref);
  return (
    <ImageThumb
      image={image}
      src={source.status === 'ready' ? source.src : undefined}
      {...(source.status === 'failed' ? { error: source.error } : {})}
    />
  );
}
