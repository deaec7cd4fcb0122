import { Suspense, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Avatar } from '../../components/Avatar';
import { Button, ButtonLink } from '../../components/Button';
import { Icon } from '../../components/Icon';
import { useAuth } from '../../features/auth/auth-context';
import { useOpenLogin } from '../../features/auth/login-modal-context';
import { usePricingModal } from '../../features/billing/PricingModal';
import { brand } from '../../lib/brand';
import { useFormat } from '../../lib/format';
import { lazyWithQueries } from '../../lib/query-client-slot';
import { ACCOUNT_PAGE_URL } from '../navigation';

// The balance's query: React Query loads for a signed-in user only, after the header has drawn ('—' until then).
const TokenBalanceSource = lazyWithQueries(async () => (await import('./TokenBalanceSource')).TokenBalanceSource);

function TokenBalance() {
  const { t } = useTranslation();
  const format = useFormat();
  const [balance, setBalance] = useState<number>();
  // Spec §2: the header offers the token pricing table itself, not a detour through /credits.
  const pricing = usePricingModal();
  const value = balance === undefined ? '—' : format.number(balance);
  return (
    <div className="flex items-center gap-1 rounded-lg border border-line bg-panel p-1">
      <Suspense fallback={null}>
        <TokenBalanceSource onChange={setBalance} />
      </Suspense>
      <span
        className="flex items-center gap-1.5 px-2 text-sm text-ink tabular-nums"
        title={t('header.tokenBalance')}
        data-testid="token-balance"
      >
        <Icon name="coins" size={16} className="text-accent" />
        <span className="sr-only">{t('header.tokenBalance')}: </span>
        <span className="font-semibold">{value}</span>
        <span className="hidden text-muted lg:inline">{t('header.tokens')}</span>
      </span>
      <Button
        size="sm"
        className="h-7 px-2.5"
        aria-label={t('header.buyTokens')}
        onClick={() => pricing.openTokens()}
        data-testid="header-buy-tokens"
      >
        <span aria-hidden="true" className="text-base leading-none">
          +
        </span>
        <span className="hidden sm:inline">{t('header.buy')}</span>
      </Button>
    </div>
  );
}

/** Sticky 68px header (spec §2): menu toggle, logo → '/', network coverage, Log in or balance and profile. */
export function Header({
  mobileMenuOpen,
  onToggleMobileMenu,
}: {
  mobileMenuOpen: boolean;
  onToggleMobileMenu: () => void;
}) {
  const { t } = useTranslation();
  const auth = useAuth();
  const openLogin = useOpenLogin();
  const user = auth && auth !== 'loading' ? auth : undefined;

  return (
    <header className="sticky top-0 z-40 flex h-header items-center gap-2 border-b border-line bg-surface/90 px-3 backdrop-blur-md md:gap-4 md:px-5">
      <button
        type="button"
        onClick={onToggleMobileMenu}
        aria-expanded={mobileMenuOpen}
        aria-controls="mobile-menu"
        aria-label={mobileMenuOpen ? t('header.closeMenu') : t('header.openMenu')}
        className="flex size-10 items-center justify-center rounded-lg text-ink hover:bg-hover md:hidden"
      >
        <Icon name={mobileMenuOpen ? 'close' : 'menu'} size={22} />
      </button>
      <Link
        to="/"
        // The logo gives way on a phone (375 px), where a signed-in header's balance pushed the page sideways.
        className="flex min-w-0 items-center rounded-md"
        aria-label={t('header.home', { product: brand.name })}
      >
        <img
          src={brand.textLogo}
          alt={brand.name}
          className="h-7 w-auto max-w-full object-contain object-left md:h-8"
        />
      </Link>

      <div className="ml-auto flex items-center gap-2 md:gap-3">
        <ButtonLink
          to="/marketplace"
          variant="ghost"
          className="px-2.5 md:px-3"
          aria-label={t('header.networkCoverage')}
        >
          <Icon name="globe" size={18} />
          <span className="hidden md:inline">{t('header.networkCoverage')}</span>
        </ButtonLink>
        {auth === 'loading' ? null : user ? (
          <>
            <TokenBalance />
            <Link
              to={ACCOUNT_PAGE_URL}
              aria-label={t('header.profile')}
              title={t('header.profile')}
              className="hidden rounded-full md:block"
            >
              <Avatar photoURL={user.photoURL} size={36} />
            </Link>
          </>
        ) : (
          <Button onClick={() => openLogin('login')}>
            <Icon name="login" size={16} className="hidden sm:block" />
            {t('header.logIn')}
          </Button>
        )}
      </div>
    </header>
  );
}
