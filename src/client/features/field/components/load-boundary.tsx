/**
 * When part of the field app cannot load (its code could not be fetched even after importWithRetry's tries,
 * or it failed while rendering), this says so with a reload button instead of leaving a blank screen.
 */
import { Component, type ErrorInfo, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';

function LoadProblem({ full }: { full: boolean }) {
  const { t } = useTranslation('field');
  return (
    <div className={full ? 'hf-empty hf-loading-full' : 'hf-empty'} role="alert" data-testid="field-load-error">
      <h2 className="hf-h4">{t('app.loadFailedTitle')}</h2>
      <p className="hf-dimmed">{t('app.loadFailedBody')}</p>
      <button type="button" className="hf-button hf-button-primary" onClick={() => window.location.reload()}>
        {t('app.reload')}
      </button>
    </div>
  );
}

export class LoadBoundary extends Component<{ children: ReactNode; full?: boolean }, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, info: ErrorInfo): void {
    console.error('field app: a part failed to load', error, info.componentStack);
  }

  override render(): ReactNode {
    return this.state.failed ? <LoadProblem full={this.props.full ?? false} /> : this.props.children;
  }
}
