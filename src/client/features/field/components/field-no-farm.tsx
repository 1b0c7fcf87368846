import { useTranslation } from 'react-i18next';

/** The field pages without a selected farm: choose one in the header, or create one in the console. */
export function FieldNoFarm() {
  const { t } = useTranslation('field');
  return (
    <div className="hf-empty" data-testid="field-no-farm">
      <h2 className="hf-h3">{t('noFarm.title')}</h2>
      <p className="hf-dimmed">{t('noFarm.help')}</p>
      <a className="hf-button hf-button-primary" href="/agents">
        {t('noFarm.toFarms')}
      </a>
    </div>
  );
}
