/**
 * The widths of the side panes (history, inspector), dragged by the user and remembered
 * between sessions in localStorage. A stored value that is damaged or out of range falls
 * back to the default, so a bad entry cannot hide a pane.
 */
export type Pane = 'sidebar' | 'inspector';

export const PANE_LIMITS: Record<Pane, { min: number; max: number; initial: number }> = {
  sidebar: { min: 180, max: 560, initial: 280 },
  inspector: { min: 260, max: 960, initial: 380 },
};

export const PANES_KEY = 'workbench.panes';

export type PaneWidths = Record<Pane, number>;

export function clampWidth(pane: Pane, width: number): number {
  const { min, max } = PANE_LIMITS[pane];
  return Math.round(Math.min(max, Math.max(min, width)));
}

export function loadPaneWidths(storage: Storage | undefined): PaneWidths {
  const widths: PaneWidths = {
    sidebar: PANE_LIMITS.sidebar.initial,
    inspector: PANE_LIMITS.inspector.initial,
  };
  try {
    const raw = storage?.getItem(PANES_KEY);
    const stored = raw ? (JSON.parse(raw) as Partial<Record<Pane, unknown>>) : {};
    for (const pane of ['sidebar', 'inspector'] as const) {
      const value = stored[pane];
      if (typeof value === 'number' && Number.isFinite(value))
        widths[pane] = clampWidth(pane, value);
    }
  } catch {
    // unreadable storage or damaged JSON: the defaults
  }
  return widths;
}

export function savePaneWidths(storage: Storage | undefined, widths: PaneWidths): void {
  try {
    storage?.setItem(PANES_KEY, JSON.stringify(widths));
  } catch {
    // storage full or denied: the widths last for this session only
  }
}
