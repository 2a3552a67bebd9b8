import { Tooltip } from './Tooltip';

/**
 * A small status label: a coloured dot and a text, with the detail (e.g. the server's error
 * message) as a tooltip. Used by the screen runner for a screen's connection check (S3 status).
 */
export interface StatusLabelProps {
  status: 'success' | 'error' | 'pending';
  text: string;
  /** Shown on hover and focus (and read by screen readers). */
  tooltip?: string;
}

export function StatusLabel({ status, text, tooltip }: StatusLabelProps) {
  return (
    <Tooltip text={tooltip} focusable>
      <span className={`status-label status-label--${status}`} role="status">
        <span className="status-label-dot" aria-hidden="true" />
        <span>{text}</span>
      </span>
    </Tooltip>
  );
}
