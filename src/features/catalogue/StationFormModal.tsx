import {
  type CreateStationBody,
  createStationBodySchema,
  type Network,
  type PatchStationBody,
  patchStationBodySchema,
  type Station,
  stationFormats,
} from '@portal/contract';
import { useTranslation } from 'react-i18next';
import { SelectField, TextField } from '../../components/form';
import { CatalogueFormModal, useCatalogueForm } from './CatalogueFormModal';
import { createStation, updateStation } from './catalogue.api';
import { numberOrUndefined } from './form-errors';

const text = (v: string | number | null | undefined) => (v === null || v === undefined ? '' : String(v));

/** Add a station to a network, or edit one: the fields of its sourcetable entry plus receiver and antenna. */
export function StationFormModal({
  network,
  station,
  onClose,
}: {
  network: Network;
  station?: Station;
  onClose: () => void;
}) {
  const { t } = useTranslation('catalogue');
  const form = useCatalogueForm({
    initialValues: {
      mountpoint: text(station?.mountpoint),
      identifier: text(station?.identifier),
      country: text(station?.country),
      latitude: text(station?.latitude),
      longitude: text(station?.longitude),
      heightM: text(station?.heightM),
      receiver: text(station?.receiver),
      antenna: text(station?.antenna),
      format: station?.format ?? 'RTCM 3.3',
      formatDetails: text(station?.formatDetails),
      navSystem: station?.navSystem ?? 'GPS+GLO+GAL+BDS',
      carrier: text(station?.carrier ?? 2),
      bitrate: text(station?.bitrate ?? 0),
    },
    schema: station ? patchStationBodySchema : createStationBodySchema,
    toBody: (values) => ({
      ...values,
      networkId: network.id,
      latitude: numberOrUndefined(values.latitude),
      longitude: numberOrUndefined(values.longitude),
      heightM: values.heightM.trim() === '' ? null : Number(values.heightM),
      carrier: Number(values.carrier),
      bitrate: numberOrUndefined(values.bitrate),
    }),
    submit: (body) =>
      station ? updateStation(station.id, body as PatchStationBody) : createStation(body as CreateStationBody),
    onSuccess: onClose,
  });
  const { values, set } = form;
  const field = (key: keyof typeof values, label: string, extra: Record<string, unknown> = {}) => (
    <TextField
      label={label}
      value={values[key]}
      onChange={(e) => set(key)(e.target.value)}
      error={form.errors[key]}
      data-testid={`station-${key}`}
      {...extra}
    />
  );

  return (
    <CatalogueFormModal
      name="station"
      title={station ? t('stations.editTitle', { mountpoint: station.mountpoint }) : t('stations.createTitle')}
      form={form}
      onClose={onClose}
    >
      <div className="grid gap-4 md:grid-cols-3">
        {field('mountpoint', t('fields.mountpoint'), { hint: t('stations.mountpointHint'), required: true })}
        {field('identifier', t('fields.identifier'))}
        {field('country', t('fields.country'), { hint: t('stations.countryHint'), maxLength: 3 })}
        {field('latitude', t('fields.latitude'), { type: 'number', step: 'any', min: -90, max: 90 })}
        {field('longitude', t('fields.longitude'), { type: 'number', step: 'any', min: -180, max: 180 })}
        {field('heightM', t('fields.heightM'), { type: 'number', step: 'any' })}
        {field('receiver', t('fields.receiver'))}
        {field('antenna', t('fields.antenna'))}
        <SelectField
          label={t('fields.format')}
          value={values.format}
          onChange={(e) => set('format')(e.target.value)}
          options={stationFormats.map((f) => ({ value: f, label: f }))}
        />
        {field('navSystem', t('fields.navSystem'), { hint: t('stations.navSystemHint') })}
        <SelectField
          label={t('fields.carrier')}
          value={values.carrier}
          onChange={(e) => set('carrier')(e.target.value)}
          options={['0', '1', '2'].map((c) => ({ value: c, label: t(`carrier.${c}`) }))}
        />
        {field('bitrate', t('fields.bitrate'), { type: 'number', min: 0 })}
      </div>
      {field('formatDetails', t('fields.formatDetails'), { hint: t('stations.formatDetailsHint') })}
    </CatalogueFormModal>
  );
}
