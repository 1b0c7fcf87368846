import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/**
 * A small label over its value (the miner detail's fields); long values wrap anywhere rather than overflow. `wide`: two
 * columns of its grid (a 17-character SN with its edit button broke over two lines in one).
 */
export function DetailField({ label, children, wide }: { label: string; children: ReactNode; wide?: boolean }) {
  return (
    <div style={{ minWidth: 0, gridColumn: wide ? 'span 2' : undefined }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} component="div">
        {children}
      </Text>
    </div>
  );
}
