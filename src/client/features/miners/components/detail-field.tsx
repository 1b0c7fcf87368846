import type { ReactNode } from 'react';
import { Text } from '@mantine/core';

/** A small label over its value (the miner detail's fields); long values wrap anywhere rather than overflow. */
export function DetailField({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ minWidth: 0 }}>
      <Text size="xs" c="dimmed">
        {label}
      </Text>
      <Text size="sm" style={{ overflowWrap: 'anywhere' }} component="div">
        {children}
      </Text>
    </div>
  );
}
