import { afterEach, describe, expect, it } from 'vitest';
import { fireEvent, render, screen } from '@testing-library/react';
import { MantineProvider } from '@mantine/core';
import { SearchForm } from './search-form';

const desktopMatchMedia = window.matchMedia;
afterEach(() => {
  window.matchMedia = desktopMatchMedia;
});

function mount() {
  const searches: string[] = [];
  render(
    <MantineProvider>
      <SearchForm placeholder="IP or SN" testId="search" onSearch={(text) => searches.push(text)} />
    </MantineProvider>,
  );
  return { searches, box: screen.getByTestId('search') as HTMLInputElement };
}

describe('SearchForm', () => {
  it('searches the trimmed text on Enter only, not per key', () => {
    const { searches, box } = mount();
    fireEvent.change(box, { target: { value: ' 10.0.1.' } });
    expect(searches).toEqual([]);
    fireEvent.submit(box.closest('form')!);
    expect(searches).toEqual(['10.0.1.']);
    expect(box.getAttribute('enterkeyhint')).toBe('search');
  });

  it('brings the whole list back as soon as the box is emptied after a search, once', () => {
    const { searches, box } = mount();
    fireEvent.change(box, { target: { value: 'HTM3' } });
    fireEvent.submit(box.closest('form')!);
    fireEvent.change(box, { target: { value: '' } });
    expect(searches).toEqual(['HTM3', '']);
    fireEvent.change(box, { target: { value: 'H' } });
    fireEvent.change(box, { target: { value: '' } });
    expect(searches).toEqual(['HTM3', '']);
  });

  it('is a finger-size box on a phone', () => {
    window.matchMedia = (query: string) => ({ ...desktopMatchMedia(query), matches: query.includes('max-width') });
    const { box } = mount();
    expect(box.closest('[data-size]')?.getAttribute('data-size') ?? box.getAttribute('data-size')).toBe('sm');
  });
});
