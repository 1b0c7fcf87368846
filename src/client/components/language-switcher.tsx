/** Header language switcher: zh-CN, en-US, ru (names shown in their own language). */
import { ActionIcon, Button, Menu } from '@mantine/core';
import { IconCheck, IconLanguage } from '@tabler/icons-react';
import { useTranslation } from 'react-i18next';
import { LOCALES, type Locale } from '@shared/validation';
import { changeLocale, currentLocale } from '@client/lib/i18n';

export const LOCALE_NAMES: Record<Locale, string> = { 'zh-CN': '简体中文', 'en-US': 'English', ru: 'Русский' };

export interface LanguageSwitcherProps {
  compact?: boolean;
}

export function LanguageSwitcher({ compact = false }: LanguageSwitcherProps) {
  const { t, i18n } = useTranslation('shell');
  const active = currentLocale();
  void i18n.language; // re-render on language change
  return (
    <Menu position="bottom-end" withinPortal>
      <Menu.Target>
        {compact ? (
          <ActionIcon variant="subtle" color="gray" size="lg" aria-label={t('language.label')} data-testid="language-switcher">
            <IconLanguage size={20} />
          </ActionIcon>
        ) : (
          <Button variant="subtle" color="gray" leftSection={<IconLanguage size={18} />} aria-label={t('language.label')} data-testid="language-switcher" px="xs">
            {LOCALE_NAMES[active]}
          </Button>
        )}
      </Menu.Target>
      <Menu.Dropdown>
        <Menu.Label>{t('language.label')}</Menu.Label>
        {LOCALES.map((l) => (
          <Menu.Item key={l} lang={l} onClick={() => void changeLocale(l)} rightSection={l === active ? <IconCheck size={14} /> : null} data-locale={l}>
            {LOCALE_NAMES[l]}
          </Menu.Item>
        ))}
      </Menu.Dropdown>
    </Menu>
  );
}
