import { useId, useState } from 'react';
import { useTranslation } from 'react-i18next';

/** The "no customer" choice of a customer picker. */
export const NO_CUSTOMER = '\u0000none';

/** Above this many customers a filter box narrows the list. */
const FILTER_FROM = 12;

/** A native select of the farm's customers (the phone's own picker), with a filter box for long lists. */
export function CustomerPicker({ customers, value, onChange, testId }: { customers: string[]; value: string; onChange: (v: string) => void; testId: string }) {
  const { t } = useTranslation('offline');
  const { t: tf } = useTranslation('field');
  const id = useId();
  const [filter, setFilter] = useState('');
  const f = filter.trim().toLowerCase();
  const shown = f ? customers.filter((c) => c.toLowerCase().includes(f) || c === value) : customers;
  return (
    <>
      {customers.length > FILTER_FROM && (
        <input
          type="search"
          className="hf-input hf-mb"
          placeholder={tf('picker.filter')}
          aria-label={tf('picker.filter')}
          value={filter}
          onChange={(e) => setFilter(e.currentTarget.value)}
        />
      )}
      <label className="hf-label" htmlFor={id}>
        {t('customerDialog.customer')}
      </label>
      <select id={id} className="hf-input" value={value} onChange={(e) => onChange(e.currentTarget.value)} data-testid={testId}>
        <option value={NO_CUSTOMER}>{t('customerDialog.none')}</option>
        {value !== NO_CUSTOMER && !customers.includes(value) && <option value={value}>{value}</option>}
        {shown.map((c) => (
          <option key={c} value={c}>
            {c}
          </option>
        ))}
      </select>
    </>
  );
}
