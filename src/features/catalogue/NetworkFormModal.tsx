import { createNetworkBodySchema, type Network, networkStatuses, patchNetworkBodySchema } from '@portal/contract';
import { type FormEvent, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Button } from '../../components/Button';
import { SelectField, TextField, ToggleSwitch } from '../../components/form';
import { Modal, ModalTitle } from '../../components/modal';
import { createNetwork, updateNetwork } from './catalogue.api';
import { useCatalogueMutation } from './catalogue.hooks';
import { type FieldErrors, numberOrUndefined, serverErrors, zodFieldErrors } from './form-errors';

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
  const [values, setValues] = useState({
    name: network?.name ?? '',
    slug: network?.slug ?? '',
    description: network?.description ?? '',
    operator: network?.operator ?? '',
    region: network?.region ?? '',
    status: network?.status ?? 'active',
    isPublic: network?.isPublic ?? true,
    tokenPricePerDay: String(network?.tokenPricePerDay ?? 0),
  });
  const [errors, setErrors] = useState<FieldErrors>({});
  const [general, setGeneral] = useState<string>();
  const save = useCatalogueMutation((body: Record<string, unknown>) =>
    network ? updateNetwork(network.id, body) : createNetwork(body as Parameters<typeof createNetwork>[0]),
  );
  const set = (key: keyof typeof values) => (value: string | boolean) => setValues((v) => ({ ...v, [key]: value }));

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const body = {
      ...values,
      slug: values.slug.trim() || undefined,
      tokenPricePerDay: numberOrUndefined(values.tokenPricePerDay),
    };
    const parsed = (network ? patchNetworkBodySchema : createNetworkBodySchema).safeParse(body);
    if (!parsed.success) {
      setErrors(zodFieldErrors(parsed.error));
      return;
    }
    setErrors({});
    setGeneral(undefined);
    save.mutate(body, {
      onSuccess: (saved) => {
        onSaved?.(saved);
        onClose();
      },
      onError: (error) => {
        const e = serverErrors(error, t('errors.saveFailed'));
        setErrors(e.fields);
        setGeneral(e.general);
      },
    });
  };

  return (
    <Modal open onClose={onClose} large>
      <form onSubmit={submit} noValidate className="flex flex-col gap-4" data-testid="network-form">
        <ModalTitle>{network ? t('networks.editTitle', { name: network.name }) : t('networks.createTitle')}</ModalTitle>
        {general && <p className="rounded-lg bg-status-red/10 px-3 py-2 text-sm text-status-red">{general}</p>}
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
            onChange={(e) => set('status')(e.target.value)}
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
        <ToggleSwitch label={t('networks.isPublic')} checked={values.isPublic} onChange={set('isPublic')} />
        <div className="flex justify-end gap-2">
          <Button variant="secondary" onClick={onClose}>
            {t('actions.cancel')}
          </Button>
          <Button type="submit" disabled={save.isPending} data-testid="network-save">
            {save.isPending ? t('actions.saving') : t('actions.save')}
          </Button>
        </div>
      </form>
    </Modal>
  );
}
