import { act, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PhoneField } from '../../../src/features/demo/PhoneField';
import { renderWithProviders } from '../support/render';

// Typing through user-event is slow on a shared CI machine; the default 5 s is too tight under load.
vi.setConfig({ testTimeout: 20_000 });

let latest: string | undefined;
function Harness() {
  const [value, setValue] = useState<string | undefined>();
  latest = value;
  return <PhoneField label="Phone number" value={value} onChange={setValue} markedRequired />;
}

function setup(options: Parameters<typeof userEvent.setup>[0] = {}) {
  latest = undefined;
  renderWithProviders(<Harness />);
  return userEvent.setup(options);
}
const phone = () => screen.getByLabelText(/^Phone number/) as HTMLInputElement;
const country = () => screen.getByRole('combobox', { name: /^Country/ });

describe('phone field (spec §5, §9)', () => {
  afterEach(() => vi.useRealTimers());

  it('starts on the Netherlands and gives the number in E.164', async () => {
    const u = setup();
    expect(country()).toHaveTextContent('+31');
    expect(country()).toHaveAccessibleName(/Netherlands/);
    await u.type(phone(), '0201234567');
    expect(phone().value).toBe('020 123 4567');
    expect(latest).toBe('+31201234567');
  });

  it('undoes with Ctrl+Z and Cmd+Z and redoes with Ctrl+Shift+Z and Ctrl+Y', async () => {
    const u = setup();
    await u.type(phone(), '0612345');
    expect(phone().value).toBe('06 12345');
    await u.keyboard('{Control>}z{/Control}');
    expect(phone().value).toBe('06 1234');
    await u.keyboard('{Meta>}z{/Meta}');
    expect(phone().value).toBe('06 123');
    expect(latest).toBe('+316123');
    await u.keyboard('{Control>}{Shift>}z{/Shift}{/Control}');
    expect(phone().value).toBe('06 1234');
    await u.keyboard('{Control>}y{/Control}');
    expect(phone().value).toBe('06 12345');
    await u.keyboard('{Control>}y{/Control}');
    expect(phone().value).toBe('06 12345');
    // Typing after an undo drops the undone entries.
    await u.keyboard('{Control>}z{/Control}');
    await u.type(phone(), '9');
    expect(phone().value).toBe('06 12349');
    await u.keyboard('{Control>}y{/Control}');
    expect(phone().value).toBe('06 12349');
  });

  it('keeps at most 20 history entries', async () => {
    const u = setup();
    // 0 6 then 10 more digits: every digit after the first changes the value, so each one is an entry.
    await u.type(phone(), '06123456789012345678901');
    const typed = phone().value;
    for (let i = 0; i < 40; i++) await u.keyboard('{Control>}z{/Control}');
    // The oldest kept entry: 20 entries back from the last one, i.e. the first 4 digits of the 23 typed.
    expect(phone().value.replace(/\D/g, '')).toBe('0612');
    for (let i = 0; i < 40; i++) await u.keyboard('{Control>}y{/Control}');
    expect(phone().value).toBe(typed);
  });

  it('jumps to the country typed in the selector; the typed text starts over after 1 second', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    const u = setup({ advanceTimers: vi.advanceTimersByTime });
    country().focus();
    await u.keyboard('ger');
    expect(country()).toHaveTextContent('+49');
    // Within the second the text grows: "gerb" matches nothing and Germany stays.
    await u.keyboard('b');
    expect(country()).toHaveTextContent('+49');
    act(() => {
      vi.advanceTimersByTime(1000);
    });
    await u.keyboard('belg');
    expect(country()).toHaveTextContent('+32');
    expect(country()).toHaveAccessibleName(/Belgium/);
  });

  it('opens a listbox, picks a country with the keyboard and formats by its mask', async () => {
    const u = setup();
    await u.click(country());
    const list = screen.getByRole('listbox', { name: 'Country' });
    expect(list).toBeVisible();
    expect(screen.getByRole('option', { name: /Netherlands/ })).toHaveAttribute('aria-selected', 'true');
    await u.keyboard('{ArrowDown}{Enter}');
    expect(country()).not.toHaveTextContent('+31');
    await u.click(country());
    await u.click(screen.getByRole('option', { name: /United States/ }));
    expect(country()).toHaveTextContent('+1');
    expect(country()).toHaveFocus();
    await u.type(phone(), '2025550143');
    expect(phone().value).toBe('(202) 555-0143');
    expect(latest).toBe('+12025550143');
  });
});
