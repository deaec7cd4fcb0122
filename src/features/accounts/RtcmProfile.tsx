import {
  type NtripAccount,
  PROFILE_MOUNTPOINT_SUFFIXES,
  type ProfileConstellation,
  profileConstellations,
  type RtcmProfile,
  rtcmProfiles,
} from '@portal/contract';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { actionFailedKey } from '../../lib/api-error';
import { accountPermissions } from './account-permissions';
import { useUpdateAccount } from './accounts.hooks';

/**
 * What the account's rovers get (issue 36): the RTCM profile, each with one line on which receivers need it, and
 * the constellations. Saved with the account (PATCH); a rover gets it from its next connection.
 */
export function RtcmProfileSection({ account }: { account: NtripAccount }) {
  const { t } = useTranslation('accounts');
  const update = useUpdateAccount();
  const [profile, setProfile] = useState<RtcmProfile>(account.rtcmProfile);
  const [only, setOnly] = useState<ProfileConstellation[] | null>(account.constellations);
  const canManage = accountPermissions(account).manage;
  // What the server holds: the answer of the last save, until the page reads the account again.
  const saved = update.data ?? account;
  const changed = profile !== saved.rtcmProfile || (only ?? []).join() !== (saved.constellations ?? []).join();
  const toggle = (c: ProfileConstellation) => {
    const next = only?.includes(c) ? only.filter((x) => x !== c) : [...(only ?? []), c];
    setOnly(profileConstellations.filter((x) => next.includes(x)));
  };

  return (
    <section data-testid="rtcm-profile" className="flex flex-col gap-3 rounded-xl border border-line bg-raised/50 p-3">
      <h3 className="text-sm font-semibold text-ink">{t('profile.title')}</h3>
      <fieldset className="flex flex-col gap-2" disabled={!canManage}>
        <legend className="sr-only">{t('profile.title')}</legend>
        {rtcmProfiles.map((p) => (
          <label key={p} className="flex gap-2 text-sm">
            <input
              type="radio"
              name={`profile-${account.id}`}
              value={p}
              checked={profile === p}
              onChange={() => setProfile(p)}
              className="mt-1"
            />
            <span>
              <span className="font-medium text-ink">{t(`profile.names.${p}`)}</span>
              <span className="block text-xs text-muted">{t(`profile.who.${p}`)}</span>
            </span>
          </label>
        ))}
      </fieldset>
      <fieldset className="flex flex-col gap-2" disabled={!canManage}>
        <legend className="text-xs font-medium text-subtle">{t('profile.constellations')}</legend>
        <label className="flex items-center gap-2 text-sm">
          <input type="checkbox" checked={only === null} onChange={() => setOnly(only === null ? ['GPS'] : null)} />
          {t('profile.allConstellations')}
        </label>
        {only !== null && (
          <div className="flex flex-wrap gap-3">
            {profileConstellations.map((c) => (
              <label key={c} className="flex items-center gap-1 text-sm">
                <input
                  type="checkbox"
                  checked={only.includes(c)}
                  disabled={only.length === 1 && only.includes(c)}
                  onChange={() => toggle(c)}
                />
                {t(`profile.constellation.${c}`)}
              </label>
            ))}
          </div>
        )}
      </fieldset>
      <p className="text-xs text-muted">
        {t('profile.suffix', { msm4: PROFILE_MOUNTPOINT_SUFFIXES.msm4, legacy: PROFILE_MOUNTPOINT_SUFFIXES.legacy })}
      </p>
      {canManage && (
        <div className="flex flex-wrap items-center gap-3">
          <Button
            size="sm"
            disabled={!changed || update.isPending}
            onClick={() => update.mutate({ id: account.id, body: { rtcmProfile: profile, constellations: only } })}
          >
            {t('profile.save')}
          </Button>
          {update.isSuccess && !changed && (
            <span role="status" className="text-xs text-status-green">
              {t('profile.saved')}
            </span>
          )}
          {update.isError && (
            <span role="alert" className="text-xs text-status-red">
              {t(actionFailedKey(update.error))}
            </span>
          )}
        </div>
      )}
    </section>
  );
}
