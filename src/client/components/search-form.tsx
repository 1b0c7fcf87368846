/**
 * A table's search box: typed freely, searched on Enter (one request per search, not per key), trimmed.
 */
import { useState } from 'react';
import { TextInput } from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';

export function SearchForm({ placeholder, onSearch, testId }: { placeholder: string; onSearch: (text: string) => void; testId: string }) {
  const [text, setText] = useState('');
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        onSearch(text.trim());
      }}
      style={{ flex: '1 1 220px', maxWidth: 360 }}
    >
      <TextInput
        size="xs"
        value={text}
        onChange={(e) => setText(e.currentTarget.value)}
        placeholder={placeholder}
        aria-label={placeholder}
        leftSection={<IconSearch size={14} />}
        data-testid={testId}
      />
    </form>
  );
}
