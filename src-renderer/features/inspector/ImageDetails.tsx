import { useCallback, useState } from 'react';
import type { EventImage } from '@shared/events';
import type { MessageItem } from '../../store/timeline/types';
import { useImageSrc } from '../../store/use-image-src';
import {
  describeImage,
  ImageFull,
  ImageLightbox,
  ImagePlaceholder,
} from '../../components/content/MessageImage';

/** A message's image in the inspector: full width with its type and size; a click opens it large. */
export function ImageDetails({ item }: { item: MessageItem }) {
  const ref = item.image?.ref;
  if (item.image && ref !== undefined) return <KeptImage image={{ ...item.image, ref }} />;
  return <ImagePlaceholder image={item.image} mimeType={item.imageMimeType ?? ''} isLarge />;
}

function KeptImage({ image }: { image: EventImage & { ref: string } }) {
  const source = useImageSrc(image.ref);
  const [isOpen, setOpen] = useState(false);
  const close = useCallback(() => setOpen(false), []);
  const src = source.status === 'ready' ? source.src : undefined;
  return (
    <>
      <ImageFull
        image={image}
        src={src}
        {...(source.status === 'failed' ? { error: source.error } : {})}
        onOpen={() => setOpen(true)}
      />
      {isOpen && src !== undefined && (
        <ImageLightbox src={src} label={describeImage(image, image.mimeType)} onClose={close} />
      )}
    </>
  );
}
