/**
 * What the shell offers to pages without pages importing the shell (architecture.md boundaries):
 * the app layout provides it; a page calls useShellActions().
 */
import { createContext, useContext } from 'react';
import type { MenuNode } from '@shared/menu-catalogue';

export interface ShellActions {
  /** Opens the header's "new mining farm" dialog. */
  openNewFarm: () => void;
  /** The sidebar's sections as shown to this user (permitted, built pages only). */
  sections: MenuNode[];
}

export const ShellActionsContext = createContext<ShellActions>({ openNewFarm: () => undefined, sections: [] });

export function useShellActions(): ShellActions {
  return useContext(ShellActionsContext);
}
