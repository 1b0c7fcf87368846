/**
 * /loginError?code= (spec 1 §2.1, spec 2 §2). For codes 2 and 3 "jump now" opens the account center in a new
 * window; when this window regains focus the console repeats the login (re-reads the current user) and
 * replaces the route with /.
 */
import { Alert, Button, Group, Stack } from '@mantine/core';
import { IconExternalLink } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { useTranslation } from 'react-i18next';
import { fetchCurrentUser, sessionKeys, usePublicConfig } from '@client/lib/session-api';
import { AuthCard } from '../components/auth-card';
import { loginErrorKind, offersJump } from '../login-error-codes';

export const DEFAULT_ACCOUNT_CENTER_URL = '/user/center';

export function LoginErrorPage() {
  const { t } = useTranslation('auth');
  const [params] = useSearchParams();
  const kind = loginErrorKind(params.get('code'));
  const config = usePublicConfig();
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [jumped, setJumped] = useState(false);
  const accountCenter = config.data?.accountCenterUrl || DEFAULT_ACCOUNT_CENTER_URL;

  useEffect(() => {
    if (!jumped) return undefined;
    const handleFocus = () => {
      void queryClient
        .fetchQuery({ queryKey: sessionKeys.currentUser, queryFn: fetchCurrentUser, staleTime: 0 })
        .catch((err: unknown) => console.error('login retry failed', err))
        .finally(() => navigate('/', { replace: true }));
    };
    window.addEventListener('focus', handleFocus);
    return () => window.removeEventListener('focus', handleFocus);
  }, [jumped, navigate, queryClient]);

  const handleJump = () => {
    setJumped(true);
    window.open(accountCenter, '_blank', 'noopener');
  };

  return (
    <AuthCard title={t('loginError.title')} testId="login-error-page">
      <Stack gap="md">
        <Alert color={kind === 'server' ? 'red' : 'yellow'} variant="light" data-testid="login-error-message" data-kind={kind}>
          {t(`loginError.${kind}`)}
        </Alert>
        <Group justify="space-between">
          <Button component={Link} to="/login" variant="default">
            {t('loginError.backToLogin')}
          </Button>
          {offersJump(kind) && (
            <Button onClick={handleJump} rightSection={<IconExternalLink size={16} />} data-testid="login-error-jump">
              {t('loginError.jump')}
            </Button>
          )}
        </Group>
      </Stack>
    </AuthCard>
  );
}
