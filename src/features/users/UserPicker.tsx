import type { AdminUser } from '@portal/contract';
import { useQuery } from '@tanstack/react-query';
import { type KeyboardEvent, useDeferredValue, useEffect, useId, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { fieldClass } from '../../components/form';
import { Icon } from '../../components/Icon';
import { fetchAdminUsers } from './users.api';

const RESULTS = 8;
const MIN_CHARS = 2;

/** How a picked user reads: their e-mail, with the name when it says more. */
export const userLabel = (u: Pick<AdminUser, 'email' | 'displayName' | 'id'>) =>
  u.email && u.displayName ? `${u.displayName} <${u.email}>` : (u.email ?? u.displayName ?? u.id);

/**
 * The back office's way to choose a user (issue 20): type part of an e-mail or name, pick from the matches with
 * the mouse or the arrow keys and Enter. Never a raw id.
 */
export function UserPicker({
  label,
  value,
  onChange,
  className = '',
}: {
  label: string;
  value: AdminUser | null;
  onChange: (user: AdminUser | null) => void;
  className?: string;
}) {
  const { t } = useTranslation('users');
  const { t: tc } = useTranslation();
  const id = useId();
  const [text, setText] = useState('');
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(0);
  const search = useDeferredValue(text.trim());
  const enabled = search.length >= MIN_CHARS && !value;
  const results = useQuery({
    queryKey: ['admin-users', 'picker', search],
    queryFn: () => fetchAdminUsers({ search, limit: RESULTS, offset: 0 }),
    enabled,
    staleTime: 10_000,
  });
  const items = enabled ? (results.data?.items ?? []) : [];
  // biome-ignore lint/correctness/useExhaustiveDependencies: a new search starts at its first match
  useEffect(() => setActive(0), [search]);

  const pick = (user: AdminUser) => {
    onChange(user);
    setOpen(false);
    setText('');
  };
  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    if (event.key === 'ArrowDown') {
      event.preventDefault();
      setOpen(true);
      setActive((i) => Math.min(i + 1, Math.max(items.length - 1, 0)));
    } else if (event.key === 'ArrowUp') {
      event.preventDefault();
      setActive((i) => Math.max(i - 1, 0));
    } else if (event.key === 'Enter' && open && items[active]) {
      event.preventDefault();
      pick(items[active]);
    } else if (event.key === 'Escape') {
      setOpen(false);
    }
  };

  return (
    <div className={`flex min-w-0 flex-col gap-1.5 ${className}`}>
      <label htmlFor={id} className="text-sm font-medium text-muted">
        {tc('form.labelWithColon', { label })}
      </label>
      {value ? (
        <div className="flex h-10 min-w-0 items-center justify-between gap-2 rounded-lg border border-line-strong bg-raised px-3 text-sm">
          <span className="truncate text-ink" data-testid="picked-user">
            {userLabel(value)}
          </span>
          <Button size="sm" variant="secondary" onClick={() => onChange(null)} id={id}>
            {t('picker.change')}
          </Button>
        </div>
      ) : (
        <div className="relative">
          <Icon
            name="search"
            size={16}
            className="pointer-events-none absolute top-1/2 left-3 -translate-y-1/2 text-subtle"
          />
          <input
            id={id}
            role="combobox"
            aria-expanded={open && items.length > 0}
            aria-controls={`${id}-list`}
            aria-autocomplete="list"
            aria-activedescendant={open && items[active] ? `${id}-${items[active].id}` : undefined}
            autoComplete="off"
            placeholder={t('picker.placeholder')}
            className={`${fieldClass} h-10 pl-9 text-sm`}
            value={text}
            onChange={(e) => {
              setText(e.target.value);
              setOpen(true);
            }}
            onFocus={() => setOpen(true)}
            onBlur={() => setOpen(false)}
            onKeyDown={onKeyDown}
          />
          {open && enabled && (
            <div
              id={`${id}-list`}
              role="listbox"
              aria-label={label}
              className="absolute z-20 mt-1 max-h-72 w-full overflow-auto rounded-lg border border-line-strong bg-panel py-1 shadow-lg"
            >
              {items.map((u, i) => (
                // biome-ignore lint/a11y/useKeyWithClickEvents: the combobox handles the keyboard (aria-activedescendant)
                <div
                  key={u.id}
                  id={`${id}-${u.id}`}
                  role="option"
                  tabIndex={-1}
                  aria-selected={i === active}
                  // Keeps focus on the combobox so its blur does not close the list before the click lands.
                  onMouseDown={(e) => e.preventDefault()}
                  onClick={() => pick(u)}
                  onMouseEnter={() => setActive(i)}
                  className={`flex cursor-pointer flex-col px-3 py-2 text-sm ${i === active ? 'bg-hover' : ''}`}
                >
                  <span className="truncate text-ink">{u.email ?? u.id}</span>
                  {u.displayName && <span className="truncate text-xs text-muted">{u.displayName}</span>}
                </div>
              ))}
              {items.length === 0 && (
                <p className="px-3 py-2 text-sm text-muted">
                  {results.isFetching ? t('picker.searching') : t('picker.none')}
                </p>
              )}
            </div>
          )}
        </div>
      )}
    </div>
  );
}
