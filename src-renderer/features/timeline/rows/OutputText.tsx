/**
 * A tool's output in its card: the head of it (ClampedText), with line numbers and
 * without wrapping when the user asks (the toggles live in the store and hold for every
 * card).
 */
import { ClampedText } from './ClampedText';

export function OutputText(props: {
  text: string;
  isExpanded: boolean;
  onToggle: () => void;
  isWrapped: boolean;
  hasLineNumbers: boolean;
}) {
  const { isWrapped, hasLineNumbers } = props;
  return (
    <ClampedText
      className={`code output${isWrapped ? '' : ' is-nowrap'}`}
      text={props.text}
      isExpanded={props.isExpanded}
      onToggle={props.onToggle}
      {...(hasLineNumbers ? { render: numbered } : {})}
    />
  );
}

function numbered(text: string) {
  return (
    <span className="numbered">
      {(text.endsWith('\n') ? text.slice(0, -1) : text).split('\n').map((line, i) => (
        <span key={i} className="numbered-line">
          <span className="ln" aria-hidden="true">
            {i + 1}
          </span>
          {line}
          {'\n'}
        </span>
      ))}
    </span>
  );
}
