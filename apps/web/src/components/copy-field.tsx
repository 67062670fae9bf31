import { useId, useState, type ReactNode } from 'react';
import { ButtonRow } from './button-row.tsx';

/**
 * Text to pass on (a link, an embed code) with a Copy button. Without a clipboard (an insecure
 * address) the text is selected instead, for the phone's own Copy.
 */
export function CopyField({
  label,
  value,
  copyLabel = `Copy ${label.toLowerCase()}`,
  rows = value.length > 80 ? 3 : 1,
  children,
}: {
  label: string;
  value: string;
  copyLabel?: string;
  rows?: number;
  /** Said under the button (what the text is for). */
  children?: ReactNode;
}) {
  const id = useId();
  const [copied, setCopied] = useState<string | null>(null);
  async function copy() {
    try {
      await navigator.clipboard.writeText(value);
      setCopied('Copied');
    } catch {
      (document.getElementById(id) as HTMLTextAreaElement | null)?.select();
      setCopied('Selected: copy it from your menu');
    }
  }
  return (
    <div className="copy-field">
      <label htmlFor={id}>{label}</label>
      <textarea id={id} readOnly rows={rows} value={value} />
      <ButtonRow done={copied}>
        <button type="button" className="btn" onClick={() => void copy()}>
          {copyLabel}
        </button>
      </ButtonRow>
      {children}
    </div>
  );
}
