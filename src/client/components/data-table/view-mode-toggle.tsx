/**
 * List / shelf view switch for DataTable's `viewToggle` slot (spec 2 "optional list/shelf toggle").
 */
import type { ReactNode } from 'react';
import { SegmentedControl } from '@mantine/core';
import { useTranslation } from 'react-i18next';

export type ViewMode = 'list' | 'shelf';

export interface ViewModeToggleProps {
  value: ViewMode;
  onChange: (value: ViewMode) => void;
  disabled?: boolean;
}

export function ViewModeToggle({ value, onChange, disabled }: ViewModeToggleProps): ReactNode {
  const { t } = useTranslation('table');
  return (
    <SegmentedControl<ViewMode>
      size="xs"
      value={value}
      onChange={onChange}
      disabled={disabled}
      aria-label={t('viewMode')}
      data-testid="view-mode-toggle"
      data={[
        { value: 'list', label: t('viewList') },
        { value: 'shelf', label: t('viewShelf') },
      ]}
    />
  );
}
