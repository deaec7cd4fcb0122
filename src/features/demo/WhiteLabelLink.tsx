import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { Icon } from '../../components/Icon';
import { brand } from '../../lib/brand';

/** Promotion CTA to the white-label offer; shown only for brands with showPromotionCTAs that are not rebranded. */
export function WhiteLabelLink({ className = '' }: { className?: string }) {
  const { t } = useTranslation();
  if (!brand.showPromotionCTAs || brand.isRebranded) return null;
  return (
    <Link
      to="/white-label"
      className={`flex items-center gap-2 rounded-lg px-3 py-2 text-xs font-medium text-muted hover:bg-hover hover:text-ink ${className}`}
    >
      <Icon name="sparkle" size={14} className="text-accent" />
      {t('sideMenu.whiteLabelCta')}
    </Link>
  );
}
