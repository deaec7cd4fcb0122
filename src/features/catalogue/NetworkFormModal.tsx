import {
  type CreateNetworkBody,
  createNetworkBodySchema,
  type Network,
  networkStatuses,
  patchNetworkBodySchema,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { CatalogueFormModal, useCatalogueForm } from './CatalogueFormModal';
import { createNetwork, updateNetwork } from './catalogue.api';
import { numberOrUndefined } from './form-errors';

/** Create a network, or edit one when `network` is given. */
export function NetworkFormModal({
  network,
  onClose,
  onSaved,
}: {
  network?: Network;
  onClose: () => void;
  onSaved?: (network: Network) => void;
}) {
  const { t } = useTranslation('catalogue');
  const form = useCatalogueForm({
    initialValues: {
      name: network?.name ?? '',
      slug: network?.slug ?? '',
      description: network?.description ?? '',
      operator: network?.operator ?? '',
      region: network?.region ?? '',
      status: network?.status ?? 'active',
      isPublic: network?.isPublic ?? true,
      tokenPricePerDay: String(network?.tokenPricePerDay ?? 0),
      nameNl: network?.translations.nl?.name ?? '',
      descriptionNl: network?.translations.nl?.description ?? '',
      regionNl: network?.translations.nl?.region ?? '',
      frame: network?.referenceFrame?.frame ?? '',
      realisation: network?.referenceFrame?.realisation ?? '',
      epoch: network?.referenceFrame?.epoch?.toString() ?? '',
      nationalGrid: network?.referenceFrame?.nationalGrid ?? '',
    },
    schema: network ? patchNetworkBodySchema : createNetworkBodySchema,
    toBody: ({ nameNl, descriptionNl, regionNl, frame, realisation, epoch, nationalGrid, ...base }) => ({
      ...base,
      slug: base.slug.trim() || undefined,
      tokenPricePerDay: numberOrUndefined(base.tokenPricePerDay),
      translations: { nl: { name: nameNl, description: descriptionNl, region: regionNl } },
      // Without a frame name the network states none; an empty epoch is the epoch of observation.
      referenceFrame: frame.trim()
        ? { frame, realisation, epoch: epoch.trim() ? Number(epoch.replace(',', '.')) : null, nationalGrid }
        : null,
    }),
    submit: (body) => (network ? updateNetwork(network.id, body) : createNetwork(body as CreateNetworkBody)),
    onSuccess: (saved) => {
      onSaved?.(saved);
      onClose();
    },
  });
  const { values, errors, set } = form;

  return (
    <CatalogueFormModal
      name="network"
      title={network ? t('networks.editTitle', { name: network.name }) : t('networks.createTitle')}
      form={form}
      onClose={onClose}
    >
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label={t('fields.name')}
          value={values.name}
          onChange={(e) => set('name')(e.target.value)}
          error={errors.name}
          data-testid="network-name"
          required
        />
        <TextField
          label={t('fields.slug')}
          value={values.slug}
          onChange={(e) => set('slug')(e.target.value)}
          error={errors.slug}
          hint={t('networks.slugHint')}
        />
        <TextField
          label={t('fields.operator')}
          value={values.operator}
          onChange={(e) => set('operator')(e.target.value)}
          error={errors.operator}
        />
        <TextField
          label={t('fields.region')}
          value={values.region}
          onChange={(e) => set('region')(e.target.value)}
          error={errors.region}
        />
        <SelectField
          label={t('fields.status')}
          value={values.status}
          onChange={(e) => set('status')(e.target.value as Network['status'])}
          options={networkStatuses.map((s) => ({ value: s, label: t(`status.${s}`) }))}
        />
        <TextField
          label={t('fields.tokenPricePerDay')}
          type="number"
          min={0}
          value={values.tokenPricePerDay}
          onChange={(e) => set('tokenPricePerDay')(e.target.value)}
          error={errors.tokenPricePerDay}
        />
      </div>
      <TextField
        label={t('fields.description')}
        value={values.description}
        onChange={(e) => set('description')(e.target.value)}
        error={errors.description}
      />
      <div className="grid gap-4 md:grid-cols-2">
        <TextField
          label={t('fields.nameNl')}
          value={values.nameNl}
          onChange={(e) => set('nameNl')(e.target.value)}
          error={errors.translations}
          hint={t('networks.translationHint')}
          data-testid="network-name-nl"
        />
        <TextField
          label={t('fields.descriptionNl')}
          value={values.descriptionNl}
          onChange={(e) => set('descriptionNl')(e.target.value)}
        />
        <TextField
          label={t('fields.regionNl')}
          value={values.regionNl}
          onChange={(e) => set('regionNl')(e.target.value)}
        />
      </div>
      <fieldset className="grid gap-4 md:grid-cols-2">
        <legend className="mb-2 text-sm font-medium text-muted">{t('frame.legend')}</legend>
        <TextField
          label={t('fields.frame')}
          value={values.frame}
          onChange={(e) => set('frame')(e.target.value)}
          error={errors['referenceFrame.frame']}
          hint={t('frame.frameHint')}
          data-testid="network-frame"
        />
        <TextField
          label={t('fields.realisation')}
          value={values.realisation}
          onChange={(e) => set('realisation')(e.target.value)}
          error={errors['referenceFrame.realisation']}
          data-testid="network-realisation"
        />
        <TextField
          label={t('fields.epoch')}
          value={values.epoch}
          inputMode="decimal"
          onChange={(e) => set('epoch')(e.target.value)}
          error={errors['referenceFrame.epoch']}
          hint={t('frame.epochHint')}
          data-testid="network-epoch"
        />
        <TextField
          label={t('fields.nationalGrid')}
          value={values.nationalGrid}
          onChange={(e) => set('nationalGrid')(e.target.value)}
          error={errors['referenceFrame.nationalGrid']}
          data-testid="network-grid"
        />
      </fieldset>
      <ToggleSwitch label={t('networks.isPublic')} checked={values.isPublic} onChange={set('isPublic')} />
    </CatalogueFormModal>
  );
}
