/**
 * When part of the field app cannot load (its code could not be fetched even after importWithRetry's tries,
 * or it failed while rendering), this says so with a reload button instead of leaving a blank screen. Around a
 * dialog (`onClose`), the message is a dialog of its own that can be closed.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { FieldDialog } from './field-dialog';

interface LoadBoundaryProps {
  children: ReactNode;
  /** The whole screen (the app's root). */
  full?: boolean;
  /** The part is a dialog: the message shows in a dialog that this closes. */
  onClose?: () => void;
}

function LoadProblem({ full, onClose }: Omit<LoadBoundaryProps, 'children'>) {
  const { t } = useTranslation('field');
  const body = (
    <div className={full ? 'hf-empty hf-loading-full' : 'hf-empty'} role="alert" data-testid="field-load-error">
      {!onClose && <h2 className="hf-h4">{t('app.loadFailedTitle')}</h2>}
      <p className="hf-dimmed">{t('app.loadFailedBody')}</p>
      <button type="button" className="hf-button hf-button-primary" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
  if (!onClose) return body;
  return (
    <FieldDialog title={t('app.loadFailedTitle')} onClose={onClose} closeLabel={t('app.close')} testId="field-load-error-dialog">
      {body}
    </FieldDialog>
  );
}

export class LoadBoundary extends Component<LoadBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('field app: a part failed to load', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <LoadProblem full={this.props.full ?? false} onClose={this.props.onClose} /> : this.props.children;
  }
}
