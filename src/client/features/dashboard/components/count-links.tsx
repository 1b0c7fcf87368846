/** A dashboard card's list of counts, each row a link to the miners it counts (top faults, why miners are offline). */
import { Badge, Stack, Text, UnstyledButton } from '@mantine/core';
import { Link } from 'react-router-dom';
import { formatNumber } from '@shared/format/number';

export interface CountLink {
  key: string;
  text: string;
  count: number;
  to: string;
  /** The count's badge colour (default red). */
  color?: string;
}

export function CountLinks({ rows, rowTestId, hint }: { rows: readonly CountLink[]; rowTestId: string; hint?: string }) {
  return (
    <Stack gap={2}>
      {/* The whole row is the link: a finger-size target on a phone, not the 20 px line of its name; a long name wraps beside its count. */}
      {rows.map((r) => (
        <UnstyledButton
          key={r.key}
          component={Link}
          to={r.to}
          data-testid={rowTestId}
          data-key={r.key}
          style={{ display: 'flex', alignItems: 'center', justifyContent: 'space-between', gap: 'var(--mantine-spacing-xs)', minHeight: 32 }}
        >
          <Text size="sm" c="blue">
            {r.text}
          </Text>
          <Badge color={r.color ?? 'red'} variant="light" style={{ flexShrink: 0 }}>
            {formatNumber(r.count)}
          </Badge>
        </UnstyledButton>
      ))}
      {hint && (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      )}
    </Stack>
  );
}
