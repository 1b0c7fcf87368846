import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** True below Mantine's `sm` breakpoint (phones). */
export function usePhone(): boolean {
  return useMediaQuery(`(max-width: ${em(767)})`) ?? false;
}
