import type { AnchorHTMLAttributes, MouseEvent } from 'react';
import { navigateTo } from '../lib/field-paths';

/** A real link (long-press, new tab work) that moves inside the field app without a reload. */
export function FieldLink({ to, onClick, ...rest }: AnchorHTMLAttributes<HTMLAnchorElement> & { to: string }) {
  const click = (e: MouseEvent<HTMLAnchorElement>) => {
    onClick?.(e);
    if (e.defaultPrevented || e.button !== 0 || e.metaKey || e.ctrlKey || e.shiftKey || e.altKey) return;
    e.preventDefault();
    navigateTo(to);
  };
  return <a href={to} onClick={click} {...rest} />;
}
