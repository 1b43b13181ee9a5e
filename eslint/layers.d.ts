/** Types of eslint/layers.js, for the tests that read the map. */
export const LAYERS: Record<string, string>;
export function layerOf(path: string): { layer: string; unit: string } | undefined;
export const layersPlugin: unknown;
