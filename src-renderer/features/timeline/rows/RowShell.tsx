import type { ReactNode } from 'react';
import type { TimelineItem } from '../../../store/timeline/types';

/**
 * The element every timeline row renders into: its test id, the item's id and kind,
 * the selection state, and the click that selects it (links inside rows stop the click).
 */
export function RowShell(props: {
  item: TimelineItem;
  testId: string;
  className: string;
  isSelected: boolean;
  onSelect: (id: number) => void;
  data?: Record<string, string | number | undefined>;
  children: ReactNode;
}) {
  const { item, testId, className, isSelected, onSelect, data, children } = props;
  const attrs: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(data ?? {})) if (v !== undefined) attrs[`data-${k}`] = v;
  return (
    <div
      className={`row ${className}${isSelected ? ' is-selected' : ''}${item.stepId !== 0 && item.kind !== 'step' ? ' in-step' : ''}`}
      data-testid={testId}
      data-item-id={item.id}
      data-kind={item.kind}
      aria-selected={isSelected}
      role="option"
      onClick={() => onSelect(item.id)}
      {...attrs}
    >
      {children}
    </div>
  );
}

/** A button inside a row that must not also select the row. */
export function RowLink(props: {
  onClick: () => void;
  testId?: string;
  title?: string;
  className?: string;
  data?: Record<string, string | number>;
  children: ReactNode;
}) {
  const attrs: Record<string, string | number> = {};
  for (const [k, v] of Object.entries(props.data ?? {})) attrs[`data-${k}`] = v;
  return (
    <button
      type="button"
      className={`link ${props.className ?? ''}`}
      data-testid={props.testId}
      title={props.title}
      onClick={(e) => {
        e.stopPropagation();
        props.onClick();
      }}
      {...attrs}
    >
      {props.children}
    </button>
  );
}
