/**
 * A table's search box: typed freely, searched on Enter or the phone keyboard's search key (one request per search,
 * not per key), trimmed; emptied (its clear button, or the text deleted), the whole list is back at once.
 */
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { usePhone } from '@client/lib/use-phone';

export function SearchForm({ placeholder, onSearch, testId }: { placeholder: string; onSearch: (text: string) => void; testId: string }) {
  const [text, setText] = useState('');
  const [searched, setSearched] = useState('');
  // A finger's target on a phone (the xs box is 30 px tall).
  const phone = usePhone();
  const search = (value: string) => {
    setSearched(value);
    onSearch(value);
  };
  return (
    <form
      role="search"
      onSubmit={(e) => {
        e.preventDefault();
        search(text.trim());
      }}
      style={{ flex: '1 1 220px', maxWidth: 360 }}
    >
      <TextInput
        type="search"
        enterKeyHint="search"
        size={phone ? 'sm' : 'xs'}
        value={text}
        onChange={(e) => {
          const next = e.currentTarget.value;
          setText(next);
          if (next.trim() === '' && searched !== '') search('');
        }}
        placeholder={placeholder}
        aria-label={placeholder}
        leftSection={<IconSearch size={14} />}
        data-testid={testId}
      />
    </form>
  );
}
