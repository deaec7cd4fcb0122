import { act, fireEvent, render, renderHook, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { type ReactNode, useState } from 'react';
import { afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { type CardRow, CardSection } from '../../src/components/CardSection';
import { COPY_CONFIRMATION_MS, CopyControl } from '../../src/components/CopyControl';
import { Dropdown } from '../../src/components/Dropdown';
import { BillingDetailsErrorDialog, NoBillingHistoryDialog, UnexpectedErrorDialog } from '../../src/components/dialogs';
import { TextField } from '../../src/components/form';
import { GenericErrorBlock } from '../../src/components/GenericErrorBlock';
import { ModalProvider, useModal } from '../../src/components/modal';
import { Pager } from '../../src/components/Pager';
import { StatCard } from '../../src/components/StatCard';
import { TabSwitch } from '../../src/components/TabSwitch';
import { initTestI18n } from './support/i18n';

beforeAll(() => {
  initTestI18n();
});

const rows: CardRow[] = [
  {
    name: 'Amsterdam NTRIP',
    status: 'green',
    records: { mount: 'AMS01' },
    actionButton: { text: 'Stop', action: vi.fn(), color: 'red' },
  },
  { name: 'Rotterdam Port', status: 'red', records: { mount: 'RTM02' }, editAction: vi.fn() },
];

function Paged({ total }: { total: number }) {
  const [page, setPage] = useState(1);
  return <Pager page={page} pageSize={10} total={total} onPage={setPage} label="Sessions" />;
}

describe('CardSection', () => {
  it('shows a grid by default and switches to a table and back with two icon buttons', async () => {
    const user = userEvent.setup();
    render(<CardSection rows={rows} columns={[{ key: 'mount', header: 'Mountpoint', colored: true }]} />);
    expect(document.querySelector('[data-view="grid"]')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Grid view' })).toHaveAttribute('aria-pressed', 'true');
    await user.click(screen.getByRole('button', { name: 'List view' }));
    const table = screen.getByRole('table');
    const headers = within(table)
      .getAllByRole('columnheader')
      .map((h) => h.textContent);
    expect(headers).toEqual(['Name', 'Mountpoint', 'Action']);
    expect(within(table).getByText('AMS01')).toHaveClass('text-status-green');
    await user.click(screen.getByRole('button', { name: 'Grid view' }));
    expect(document.querySelector('[data-view="grid"]')).toBeInTheDocument();
  });

  it('offers no search box without a filter function', () => {
    render(<CardSection rows={rows} />);
    expect(screen.queryByPlaceholderText('Search')).not.toBeInTheDocument();
  });

  it('filters rows with the given function when a filter is supplied', async () => {
    const user = userEvent.setup();
    render(<CardSection rows={rows} filter={(row, q) => row.name.toLowerCase().includes(q.toLowerCase())} />);
    await user.type(screen.getByPlaceholderText('Search'), 'rotter');
    expect(screen.queryByText('Amsterdam NTRIP')).not.toBeInTheDocument();
    expect(screen.getByText('Rotterdam Port')).toBeInTheDocument();
  });

  it('runs the row actions: green/red action button and edit', async () => {
    const user = userEvent.setup();
    render(<CardSection rows={rows} defaultView="list" />);
    expect(screen.getAllByRole('columnheader').map((h) => h.textContent)).toEqual(['Name', 'Action']);
    await user.click(screen.getByRole('button', { name: 'Stop' }));
    expect(rows[0]?.actionButton?.action).toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Edit Rotterdam Port' }));
    expect(rows[1]?.editAction).toHaveBeenCalled();
  });

  it('lays the grid out 1/2/3/4 columns at mobile/md/lg/xl', () => {
    render(<CardSection rows={rows} />);
    expect(document.querySelector('[data-view="grid"]')).toHaveClass(
      'grid-cols-1',
      'md:grid-cols-2',
      'lg:grid-cols-3',
      'xl:grid-cols-4',
    );
  });
});

function Opener({ content, large, onClose }: { content: ReactNode; large?: boolean; onClose?: () => void }) {
  const modal = useModal();
  return (
    <button type="button" onClick={() => modal.open(content, { large, onClose })}>
      open
    </button>
  );
}

describe('modal host', () => {
  it('throws when useModal is used outside the modal provider', () => {
    vi.spyOn(console, 'error').mockImplementation(() => undefined);
    expect(() => renderHook(() => useModal())).toThrow('must be used within the modal provider');
    vi.restoreAllMocks();
  });

  it('opens content, closes with the close button, then runs the close callbacks', async () => {
    const user = userEvent.setup();
    const onClose = vi.fn();
    render(
      <ModalProvider>
        <Opener content={<p>Hello</p>} onClose={onClose} />
      </ModalProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'open' }));
    expect(screen.getByRole('dialog')).toHaveTextContent('Hello');
    expect(onClose).not.toHaveBeenCalled();
    await user.click(screen.getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    await act(async () => undefined);
    expect(onClose).toHaveBeenCalledTimes(1);
  });

  it('closes on Escape, traps Tab focus and has a large size', async () => {
    const user = userEvent.setup();
    render(
      <ModalProvider>
        <Opener large content={<button type="button">inside</button>} />
      </ModalProvider>,
    );
    await user.click(screen.getByRole('button', { name: 'open' }));
    const dialog = screen.getByRole('dialog');
    expect(dialog).toHaveAttribute('data-size', 'large');
    expect(dialog).toHaveClass('max-h-[90vh]', 'md:max-w-modal-md', '2xl:max-w-modal-xl');
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    fireEvent.keyDown(document, { key: 'Escape' });
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'open' })).toHaveFocus();
  });

  it('shows the spec §8 dialogs with their exact texts', () => {
    const onClose = vi.fn();
    render(
      <ModalProvider>
        <UnexpectedErrorDialog onClose={onClose} />
        <BillingDetailsErrorDialog onClose={onClose} />
        <NoBillingHistoryDialog onClose={onClose} />
      </ModalProvider>,
    );
    expect(screen.getByText('An Unexpected Error Occurred')).toBeInTheDocument();
    expect(
      screen.getByText(
        'The application ran into an unexpected error processing your last request. Please refresh the page and try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('Could Not Retrieve Billing Details')).toBeInTheDocument();
    expect(
      screen.getByText(
        'An error occurred while retrieving your billing information. Please refresh the page and try again.',
      ),
    ).toBeInTheDocument();
    expect(screen.getByText('No Billing History')).toBeInTheDocument();
    expect(
      screen.getByText("We couldn't find any active subscriptions or billing history for your account."),
    ).toBeInTheDocument();
    fireEvent.click(screen.getAllByRole('button', { name: 'Close' })[0] as HTMLElement);
    expect(onClose).toHaveBeenCalled();
  });
});

describe('CopyControl', () => {
  afterEach(() => vi.useRealTimers());

  it('copies the value and shows the success icon for exactly 2000 ms', async () => {
    vi.useFakeTimers();
    const writeText = vi.fn(async () => undefined);
    Object.defineProperty(navigator, 'clipboard', { configurable: true, value: { writeText } });
    render(<CopyControl value="caster.example:2101" />);
    await act(async () => {
      fireEvent.click(screen.getByRole('button', { name: 'Copy' }));
    });
    expect(writeText).toHaveBeenCalledWith('caster.example:2101');
    expect(COPY_CONFIRMATION_MS).toBe(2000);
    const button = screen.getByRole('button', { name: 'Copied' });
    expect(button).toHaveAttribute('data-copied', 'true');
    act(() => vi.advanceTimersByTime(1999));
    expect(button).toHaveAttribute('data-copied', 'true');
    act(() => vi.advanceTimersByTime(1));
    expect(button).toHaveAttribute('data-copied', 'false');
  });
});

describe('Pager', () => {
  it('is absent while one page holds everything', () => {
    render(<Paged total={10} />);
    expect(screen.queryByRole('navigation', { name: 'Sessions' })).not.toBeInTheDocument();
  });

  it('moves page by page and stops at the first and the last', async () => {
    const user = userEvent.setup();
    render(<Paged total={21} />);
    const nav = screen.getByRole('navigation', { name: 'Sessions' });
    const previous = within(nav).getByRole('button', { name: 'Previous' });
    const next = within(nav).getByRole('button', { name: 'Next' });
    expect(within(nav).getByText('Page 1 of 3')).toBeInTheDocument();
    expect(previous).toBeDisabled();
    await user.click(next);
    await user.click(next);
    expect(within(nav).getByText('Page 3 of 3')).toBeInTheDocument();
    expect(next).toBeDisabled();
    await user.click(previous);
    expect(within(nav).getByText('Page 2 of 3')).toBeInTheDocument();
  });
});

describe('TabSwitch, Dropdown, StatCard, GenericErrorBlock, TextField', () => {
  const options = [
    { value: 'monthly', label: 'Monthly' },
    { value: 'yearly', label: 'Yearly' },
  ];

  it('TabSwitch starts at the initial option or the first one and keeps the choice', async () => {
    const user = userEvent.setup();
    const onChange = vi.fn();
    const first = render(<TabSwitch label="Interval" options={options} onChange={onChange} />);
    expect(screen.getByRole('tab', { name: 'Monthly' })).toHaveAttribute('aria-selected', 'true');
    await user.click(screen.getByRole('tab', { name: 'Yearly' }));
    expect(screen.getByRole('tab', { name: 'Yearly' })).toHaveAttribute('aria-selected', 'true');
    expect(onChange).toHaveBeenCalledWith('yearly');
    first.unmount();
    render(<TabSwitch label="Interval" options={options} initial="yearly" />);
    expect(screen.getByRole('tab', { name: 'Yearly' })).toHaveAttribute('aria-selected', 'true');
  });

  it('Dropdown opens on click, closes on an outside click and on choosing an item, and works by keyboard', async () => {
    const user = userEvent.setup();
    const onSelect = vi.fn();
    render(
      <div>
        <p>outside</p>
        <Dropdown label="Interval" options={options} value="monthly" onSelect={onSelect} />
      </div>,
    );
    const trigger = screen.getByRole('button', { name: 'Interval: Monthly' });
    await user.click(trigger);
    expect(screen.getByRole('listbox')).toBeInTheDocument();
    await user.click(screen.getByText('outside'));
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    await user.click(trigger);
    await user.click(screen.getByRole('option', { name: 'Yearly' }));
    expect(onSelect).toHaveBeenCalledWith('yearly');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    trigger.focus();
    await user.keyboard('{ArrowDown}');
    expect(screen.getByRole('listbox')).toHaveFocus();
    await user.keyboard('{ArrowDown}{Enter}');
    expect(onSelect).toHaveBeenLastCalledWith('yearly');
    await user.click(trigger);
    await user.keyboard('{Escape}');
    expect(screen.queryByRole('listbox')).not.toBeInTheDocument();
    expect(trigger).toHaveFocus();
  });

  it('StatCard draws its status indicator from one colour to another', () => {
    render(<StatCard title="Online stations" value={42} status={{ from: 'green', to: 'yellow' }} />);
    expect(screen.getByText('42')).toBeInTheDocument();
    const indicator = screen.getByTestId('stat-status');
    expect(indicator).toHaveAttribute('data-from', 'green');
    expect(indicator).toHaveAttribute('data-to', 'yellow');
  });

  it('GenericErrorBlock shows the genericErrorBlock texts', () => {
    render(<GenericErrorBlock />);
    expect(screen.getByRole('alert')).toHaveTextContent('Something went wrong');
  });

  it('TextField labels read "Label:" and the password icon toggles visibility', async () => {
    const user = userEvent.setup();
    render(<TextField label="Password" icon="password" />);
    const input = screen.getByLabelText('Password:');
    expect(input).toHaveAttribute('type', 'password');
    await user.click(screen.getByRole('button', { name: 'Show password' }));
    expect(input).toHaveAttribute('type', 'text');
  });
});
