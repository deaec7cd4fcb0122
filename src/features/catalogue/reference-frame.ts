import type { ReferenceFrame } from '@portal/contract';
import { useTranslation } from 'react-i18next';

/** A network's reference frame in the reader's language: "ETRS89 ETRF2000 · epoch 2010.5 · related to RD/NAP". */
export function useReferenceFrameText(): (frame: ReferenceFrame | null) => string {
  const { t } = useTranslation('catalogue');
  return (frame) => {
    if (!frame) return t('frame.notStated');
    return [
      [frame.frame, frame.realisation].filter(Boolean).join(' '),
      frame.epoch === null ? t('frame.epochOfObservation') : t('frame.epoch', { epoch: frame.epoch.toFixed(1) }),
      frame.nationalGrid ? t('frame.grid', { grid: frame.nationalGrid }) : '',
    ]
      .filter(Boolean)
      .join(' · ');
  };
}
