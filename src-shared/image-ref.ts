/**
 * How a run's stored images are named (issue 17): by the SHA-256 of their bytes and an
 * extension from a short list of raster types. The name is the only thing a reader gives
 * to fetch an image (IPC `runs:image`, the `workbench serve` route), so it is checked
 * against this exact pattern: no separators, no dots but the one before the extension,
 * nothing that could leave the run's image folder. SVG is never kept (it can carry script).
 */

/** The types whose bytes are kept, with the extension they are stored under. */
export const IMAGE_EXTENSIONS = {
  'image/png': 'png',
  'image/jpeg': 'jpg',
  'image/gif': 'gif',
  'image/webp': 'webp',
} as const;

export type KeptImageType = keyof typeof IMAGE_EXTENSIONS;
export type KeptImageExtension = (typeof IMAGE_EXTENSIONS)[KeptImageType];

export const IMAGE_REF_PATTERN = /^[0-9a-f]{64}\.(png|jpg|gif|webp)$/;

export function isImageRef(value: string): boolean {
  return IMAGE_REF_PATTERN.test(value);
}

export function isKeptImageType(mimeType: string): mimeType is KeptImageType {
  return Object.hasOwn(IMAGE_EXTENSIONS, mimeType);
}

/** The Content-Type a stored image is served with, from its ref; undefined for a bad ref. */
export function imageRefType(ref: string): KeptImageType | undefined {
  const ext = IMAGE_REF_PATTERN.exec(ref)?.[1];
  if (ext === undefined) return undefined;
  const entry = Object.entries(IMAGE_EXTENSIONS).find(([, e]) => e === ext);
  return entry?.[0] as KeptImageType | undefined;
}
