import { Group, Text } from '@mantine/core';

/** Product mark: the icon drawn in public/icons and the name. */
export function BrandMark({ withName = true, size = 28 }: { withName?: boolean; size?: number }) {
  return (
    <Group gap={8} wrap="nowrap">
      <img src="/icons/icon-192.png" width={size} height={size} alt="" style={{ borderRadius: 6, display: 'block' }} />
      {withName && (
        <Text fw={700} size="lg" style={{ letterSpacing: 0.2 }}>
          Hashfield
        </Text>
      )}
    </Group>
  );
}
