import { useEffect, useState } from 'react';
import type { SandboxImagesView } from '@shared/ipc';
import { TEST_IDS } from '../../../test-ids';
import { useBridge } from '../../../store/StoreProvider';
import { SandboxEngines } from './SandboxEngines';

function size(bytes: number): string {
  return bytes >= 1024 ** 3
    ? `${(bytes / 1024 ** 3).toFixed(1)} GB`
    : `${Math.round(bytes / 1024 ** 2)} MB`;
}

/** The images the Docker engine has, to choose `[sandbox] image` from (offline, only these work). */
export function SandboxImages({
  current,
  onPick,
}: {
  current: string;
  onPick: (tag: string) => void;
}) {
  const bridge = useBridge();
  const [view, setView] = useState<SandboxImagesView | null>(null);
  useEffect(() => {
    let isCurrent = true;
    bridge.settings.listSandboxImages().then(
      (images) => isCurrent && setView(images),
      (error: unknown) => isCurrent && setView({ images: [], error: (error as Error).message }),
    );
    return () => {
      isCurrent = false;
    };
  }, [bridge]);
  if (!view) return <p className="muted">Asking Docker for the images on this machine…</p>;
  const engines = view.engines ? <SandboxEngines engines={view.engines} /> : null;
  if (view.error) {
    return (
      <>
        <p className="warn-text">Docker could not list its images: {view.error}</p>
        {engines}
      </>
    );
  }
  const hasCurrent = view.images.some((i) => i.tag === current);
  return (
    <div className="sandbox-images" data-testid={TEST_IDS.sandboxImages}>
      {!hasCurrent && (
        <p className="warn-text" data-testid={TEST_IDS.sandboxImageMissing}>
          {current} is not on this machine: Docker would have to pull it (needs internet access).
        </p>
      )}
      <span className="muted">On this machine:</span>{' '}
      {view.images.length === 0 && <span className="muted">no images</span>}
      {view.images.map((image) => (
        <button
          key={image.tag}
          type="button"
          className={`chip link${image.tag === current ? ' is-current' : ''}`}
          data-testid={TEST_IDS.sandboxImageOption}
          data-tag={image.tag}
          title={`${size(image.sizeBytes)}, created ${new Date(image.createdAt).toLocaleDateString()}`}
          onClick={() => onPick(image.tag)}
        >
          {image.tag}
        </button>
      ))}
      {engines}
    </div>
  );
}
