import { em } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';

/** True below Mantine's `sm` breakpoint (phones): dialogs go full screen there. */
export function usePhone(): boolean {
  return useMediaQuery(`(max-width: ${em(767)})`) ?? false;
}
