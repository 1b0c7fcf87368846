/**
 * A modal dialog on the platform's <dialog> (focus trap, Escape, backdrop, top layer) without a UI library.
 * Rendered only while open; full screen on phones, centred from 576 px; `side` makes it a right-hand panel.
 */
import { type ReactNode, useEffect, useId, useRef } from 'react';

export interface FieldDialogProps {
  title: ReactNode;
  onClose: () => void;
  children: ReactNode;
  footer?: ReactNode;
  testId?: string;
  side?: boolean;
  closeLabel: string;
}

export function FieldDialog({ title, onClose, children, footer, testId, side = false, closeLabel }: FieldDialogProps) {
  const ref = useRef<HTMLDialogElement>(null);
  const titleId = useId();
  const close = useRef(onClose);
  close.current = onClose;
  useEffect(() => {
    const d = ref.current;
    if (d && !d.open) d.showModal();
    return () => {
      if (d?.open) d.close();
    };
  }, []);
  return (
    <dialog
      ref={ref}
      className={side ? 'hf-dialog hf-dialog-side' : 'hf-dialog'}
      aria-labelledby={titleId}
      data-testid={testId}
      onCancel={(e) => {
        // Escape: the parent decides (it unmounts the dialog).
        e.preventDefault();
        close.current();
      }}
      onClick={(e) => {
        if (e.target === e.currentTarget) close.current(); // a tap on the backdrop
      }}
    >
      <div className="hf-dialog-head">
        <h2 id={titleId} className="hf-dialog-title">
          {title}
        </h2>
        <button type="button" className="hf-icon-button" aria-label={closeLabel} onClick={() => close.current()}>
          ✕
        </button>
      </div>
      <div className="hf-dialog-body">{children}</div>
      {footer && <div className="hf-dialog-foot">{footer}</div>}
    </dialog>
  );
}
