import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';
import { Icon } from '../../components/Icon';
import { type MenuEntry, withActive } from '../navigation';
import { useSubmenuState } from './side-menu-state';

const itemBase =
  'group flex w-full items-center gap-3 rounded-lg text-sm font-medium transition-colors outline-offset-[-2px]';

function linkProps(entry: { url: string; newTab?: boolean }) {
  return entry.newTab ? { target: '_blank', rel: 'noopener noreferrer' } : {};
}

function EntryLink({ entry, collapsed, active }: { entry: MenuEntry; collapsed: boolean; active: boolean }) {
  const { t } = useTranslation();
  const label = t(entry.name);
  return (
    <Link
      to={entry.url}
      {...linkProps(entry)}
      aria-current={active ? 'page' : undefined}
      aria-label={collapsed ? label : undefined}
      title={collapsed ? label : undefined}
      className={`${itemBase} ${collapsed ? 'h-10 justify-center' : 'h-10 px-3'} ${
        active ? 'bg-accent/12 text-accent' : 'text-muted hover:bg-hover hover:text-ink'
      }`}
    >
      <Icon name={entry.icon} size={19} className="shrink-0" />
      {!collapsed && <span className="truncate">{label}</span>}
    </Link>
  );
}

function Submenu({
  entry,
  collapsed,
  sideMenuOpen,
  isMobile,
  onExpand,
}: {
  entry: Extract<MenuEntry, { type: 'submenu' | 'quicklinks' }>;
  collapsed: boolean;
  sideMenuOpen: boolean;
  isMobile: boolean;
  onExpand: () => void;
}) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  const items = withActive(entry.items, pathname);
  const hasActive = items.some((i) => i.isActive);
  const { open, setOpen } = useSubmenuState(entry.name, entry.icon, sideMenuOpen, isMobile, hasActive);
  const label = t(entry.name);
  const listId = `submenu-${entry.name.replace(/\W/g, '-')}-${entry.icon}`;
  const quick = entry.type === 'quicklinks';

  return (
    <li>
      <button
        type="button"
        aria-expanded={open}
        aria-controls={open ? listId : undefined}
        aria-label={collapsed ? label : undefined}
        title={collapsed ? label : undefined}
        onClick={() => {
          if (collapsed) {
            onExpand();
            setOpen(true);
          } else setOpen(!open);
        }}
        className={`${itemBase} ${collapsed ? 'h-10 justify-center' : 'h-10 px-3'} ${
          hasActive && !open ? 'text-accent' : 'text-muted hover:bg-hover hover:text-ink'
        }`}
      >
        <Icon name={entry.icon} size={19} className="shrink-0" />
        {!collapsed && (
          <>
            <span className="flex-1 truncate text-left">{label}</span>
            <Icon name="chevronDown" size={16} className={`transition-transform ${open ? 'rotate-180' : ''}`} />
          </>
        )}
      </button>
      {open && !collapsed && (
        <ul
          id={listId}
          className={`mt-1 mb-1 ml-[21px] flex flex-col gap-0.5 border-l pl-3 ${quick ? 'border-accent/30' : 'border-line'}`}
        >
          {items.map((item) => (
            <li key={item.url + item.name}>
              <Link
                to={item.url}
                aria-current={item.isActive ? 'page' : undefined}
                className={`flex h-8 items-center gap-2 rounded-md px-2 text-sm transition-colors ${
                  item.isActive ? 'bg-accent/12 font-medium text-accent' : 'text-muted hover:bg-hover hover:text-ink'
                }`}
              >
                {quick && <Icon name="chevronRight" size={14} className="shrink-0 text-subtle" />}
                <span className="truncate">{t(item.name)}</span>
              </Link>
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/** The entries of a side menu (link, submenu, quicklinks); the entry whose url is the current path is highlighted. */
export function MenuEntries({
  entries,
  collapsed,
  sideMenuOpen,
  isMobile,
  onExpand,
}: {
  entries: MenuEntry[];
  collapsed: boolean;
  sideMenuOpen: boolean;
  isMobile: boolean;
  onExpand: () => void;
}) {
  const { pathname } = useLocation();
  return (
    <ul className="flex flex-col gap-0.5">
      {entries.map((entry) =>
        entry.type === 'link' ? (
          <li key={entry.name + entry.url}>
            <EntryLink entry={entry} collapsed={collapsed} active={entry.url === pathname} />
          </li>
        ) : (
          <Submenu
            key={entry.name + entry.icon}
            entry={entry}
            collapsed={collapsed}
            sideMenuOpen={sideMenuOpen}
            isMobile={isMobile}
            onExpand={onExpand}
          />
        ),
      )}
    </ul>
  );
}
