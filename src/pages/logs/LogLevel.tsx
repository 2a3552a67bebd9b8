// A log level as a label: DEBUG, INFO, WARN, ERROR (UNKN for any other level) and the number.
import { levelLabel } from './log-format';

export function LogLevel({ level }: { level: number }) {
  const label = levelLabel(level);
  return (
    <span className={`log-level log-level-${label.toLowerCase()}`}>
      <span className="log-level-dot" aria-hidden="true" />
      {label} <span className="log-level-number">({level})</span>
    </span>
  );
}
