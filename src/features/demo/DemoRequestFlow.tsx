import { type DemoRequest, demoRequestSchema } from '@portal/contract';
import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatPhoneNumberIntl } from 'react-phone-number-input';
import { Button } from '../../components/Button';
import { MessageDialog } from '../../components/dialogs';
import { Icon, type IconName } from '../../components/Icon';
import { Modal } from '../../components/modal';
import { readGclid } from '../../lib/analytics';
import { useZodForm } from '../../lib/forms/useZodForm';
import { useUser } from '../auth/auth-context';
import { type DemoFormValues, DemoRequestForm, emptyDemoForm } from './DemoRequestForm';
import { submitDemoRequest } from './demo.api';
import { hasSubmittedDemo, markDemoSubmitted } from './demo-cookie';

const benefits: Array<{ key: string; icon: IconName }> = [
  { key: 'brand', icon: 'sparkle' },
  { key: 'network', icon: 'satellite' },
  { key: 'billing', icon: 'coins' },
  { key: 'support', icon: 'users' },
];

/** The JSON body of spec §3 as the form sends it: the phone in international format, the page it was sent from. */
export function demoRequestBody(
  values: DemoFormValues,
  context: { loggedInEmail?: string; submittedFrom: string; gclid?: string },
): DemoRequest {
  return {
    firstName: values.firstName.trim(),
    lastName: values.lastName.trim(),
    email: values.email.trim(),
    loggedInEmail: context.loggedInEmail ?? '',
    company: values.company.trim(),
    phoneNumber: values.phone ? formatPhoneNumberIntl(values.phone) || values.phone : '',
    submittedFrom: context.submittedFrom,
    message: values.message,
    gclid: context.gclid ?? '',
  };
}

function StepLabel({ step }: { step: 1 | 2 }) {
  const { t } = useTranslation('demo');
  return (
    <p className="text-xs font-semibold tracking-widest text-accent uppercase">
      {t('step', { current: step, total: 2 })}
    </p>
  );
}

function Intro({ onRequest }: { onRequest: () => void }) {
  const { t } = useTranslation('demo');
  return (
    <section aria-labelledby="demo-intro-title" className="flex flex-col gap-6">
      <div className="relative overflow-hidden rounded-3xl border border-line bg-panel px-6 py-10 md:px-10">
        <div
          aria-hidden="true"
          className="pointer-events-none absolute -top-24 -right-24 size-80 rounded-full bg-accent/10 blur-3xl"
        />
        <div className="relative flex max-w-2xl flex-col gap-4">
          <StepLabel step={1} />
          <h1
            id="demo-intro-title"
            tabIndex={-1}
            className="text-3xl font-semibold tracking-tight text-ink outline-none"
          >
            {t('intro.title')}
          </h1>
          <p className="text-base text-muted">{t('intro.lead')}</p>
          <p className="inline-flex w-fit items-center gap-2 rounded-full border border-accent/30 bg-accent/10 px-3 py-1 text-sm font-semibold text-accent">
            <Icon name="check" size={14} />
            {t('intro.trustedBy')}
          </p>
          <div>
            <Button onClick={onRequest}>{t('intro.requestDemo')}</Button>
          </div>
        </div>
      </div>
      <ul className="grid gap-4 md:grid-cols-2">
        {benefits.map((b) => (
          <li key={b.key} className="flex gap-4 rounded-2xl border border-line bg-panel p-5">
            <span className="flex size-10 shrink-0 items-center justify-center rounded-xl bg-accent/10 text-accent">
              <Icon name={b.icon} size={20} />
            </span>
            <div>
              <h2 className="text-sm font-semibold text-ink">{t(`intro.benefits.${b.key}.title`)}</h2>
              <p className="mt-1 text-sm text-muted">{t(`intro.benefits.${b.key}.text`)}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}

function Received() {
  const { t } = useTranslation('demo');
  return (
    <section className="rounded-2xl border border-line bg-panel p-6 text-sm text-muted" data-testid="demo-received">
      {t('thankYou.message')}
    </section>
  );
}

/**
 * The two-step sales-demo request (spec §4): Step 1 of 2 (benefits, 'Request a Demo'), Step 2 of 2 (Contact Sales,
 * with Back). With the demo-submitted cookie present 'Thank you!' shows instead of step 1. Success sets the cookie
 * and shows 'Thank you!'; a non-ok answer or a network error shows 'Submission Failed' and keeps what was typed.
 * `onDone` runs when the user closes 'Thank you!'.
 */
export function DemoRequestFlow({ onDone }: { onDone: () => void }) {
  const { t } = useTranslation('demo');
  const user = useUser();
  const [alreadySent] = useState(hasSubmittedDemo);
  const [step, setStep] = useState<1 | 2>(1);
  const [dialog, setDialog] = useState<'thanks' | 'failed' | undefined>(alreadySent ? 'thanks' : undefined);
  const headings = useRef<HTMLDivElement>(null);

  const submission = useMutation({
    mutationFn: submitDemoRequest,
    retry: false,
    onSuccess: () => {
      markDemoSubmitted();
      setDialog('thanks');
    },
    onError: () => setDialog('failed'),
  });
  const form = useZodForm({
    initialValues: emptyDemoForm,
    schema: demoRequestSchema,
    toBody: (values: DemoFormValues) =>
      demoRequestBody(values, {
        loggedInEmail: user?.email,
        submittedFrom: typeof window === 'undefined' ? '' : window.location.href,
        gclid: readGclid(),
      }),
    // toBody fills every field, as submitDemoRequest wants.
    submit: (body) => submission.mutateAsync(body as DemoRequest),
    // The contract names each problem (required, invalidEmail, invalidPhone, tooLong): demo's errors.<name>.
    ns: 'demo',
    keys: 'errors',
  });

  // Moves focus to the new step's heading, so keyboard and screen-reader users land at its start. Comparing with the
  // step last focused (not a first-run flag) keeps StrictMode's double effect on mount from stealing focus.
  const shownStep = useRef(step);
  useEffect(() => {
    if (shownStep.current === step) return;
    shownStep.current = step;
    headings.current?.querySelector<HTMLElement>('h1')?.focus();
  }, [step]);

  const sent = alreadySent || submission.isSuccess;
  return (
    <div ref={headings} className="flex flex-col gap-6">
      {sent ? (
        <Received />
      ) : step === 1 ? (
        <Intro onRequest={() => setStep(2)} />
      ) : (
        <section aria-labelledby="demo-form-title" className="mx-auto flex w-full max-w-2xl flex-col gap-5">
          <div className="flex flex-col gap-2">
            <StepLabel step={2} />
            <h1
              id="demo-form-title"
              tabIndex={-1}
              className="text-2xl font-semibold tracking-tight text-ink outline-none"
            >
              {t('form.title')}
            </h1>
            <p className="text-sm text-muted">{t('form.lead')}</p>
          </div>
          <div className="rounded-2xl border border-line bg-panel p-6">
            <DemoRequestForm form={form} onBack={() => setStep(1)} />
          </div>
        </section>
      )}

      <Modal open={dialog === 'thanks'} onClose={onDone}>
        <MessageDialog
          icon="check"
          tone="green"
          title={t('thankYou.title')}
          actions={
            <Button onClick={onDone} data-autofocus>
              {t('common:dialogs.close')}
            </Button>
          }
        >
          {t('thankYou.message')}
        </MessageDialog>
      </Modal>
      <Modal open={dialog === 'failed'} onClose={() => setDialog(undefined)}>
        <MessageDialog
          title={t('failure.title')}
          actions={
            <Button variant="secondary" onClick={() => setDialog(undefined)} data-autofocus>
              {t('common:dialogs.close')}
            </Button>
          }
        >
          {t('failure.message')}
        </MessageDialog>
      </Modal>
    </div>
  );
}
