import type { FormEvent } from 'react';
import { useEffect, useMemo, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { z } from 'zod';
import { apiError } from '../api-error';
import { type FieldErrors, fieldErrors } from './zod-messages';

export type { FieldErrors } from './zod-messages';

/**
 * A schema loaded on the form's first use (a change, a field left, a send), not when it draws: a form a first visit
 * shows (the sign-up form on /signup) then brings no zod into that visit (ADR 0093). Until it has loaded the form
 * shows no problem and is not valid; a send waits for it.
 */
export type SchemaOnUse<S> = () => Promise<S>;

const loadsOnUse = <S>(schema: S | SchemaOnUse<S>): schema is SchemaOnUse<S> => typeof schema === 'function';

export interface ZodFormOptions<V, S extends z.ZodType, R> {
  /** What the inputs hold at first (strings for text and number inputs, as the user types them). */
  initialValues: V;
  /** The contract's schema of the request body: the one the server parses the same body with; or its loader. */
  schema: S | SchemaOnUse<S>;
  /** The body the schema checks, made from the inputs (numbers parsed, blanks left out); the inputs by default. */
  toBody?: (values: V) => unknown;
  /**
   * Sends the body the schema accepted, as it was made (the server parses it again with the same schema, so
   * transforms run once); a rejection with the API's `field` shows next to that field.
   */
  submit: (body: z.input<S>) => Promise<R>;
  onSuccess?: (result: R, body: z.input<S>) => void;
  /** The form's namespace: its `validation.<field>` keys win over the general texts, `errors.<code>` over the server's. */
  ns?: string;
  /** Where in `ns` the form's field texts are, when not under `validation` (e.g. `details.invalid`). */
  keys?: string;
  /** One translated text for any problem of a field, when the form says it the same way whatever the reason. */
  fieldTexts?: Partial<Record<string, string>>;
  /** Shown above the form when a send fails without a field; `common:form.failed` by default. */
  failedText?: string;
}

export interface ZodForm<V> {
  values: V;
  /** A setter for one input, e.g. `onChange={(e) => form.set('name')(e.target.value)}`. */
  set: <K extends keyof V>(name: K) => (value: V[K]) => void;
  setValues: (update: (values: V) => V) => void;
  /**
   * Marks a field as left, so its problem shows before the first submit (forms that check as you go). Takes the
   * body's field name where that differs from the input's.
   */
  touch: (name: string) => () => void;
  /** The problems shown: of touched fields, of every field after a submit, and the server's for its field. */
  errors: FieldErrors;
  /** The first shown problem in the schema's order, for forms that show one message (spec §5 of the auth forms). */
  firstError?: string;
  /** A failure the server did not tie to a field. */
  general?: string;
  /** True while the body is being sent. */
  pending: boolean;
  /** True when the current inputs pass the schema. */
  valid: boolean;
  /** Starts over: the given inputs (the initial ones by default), nothing touched, no problem shown. */
  reset: (values?: V) => void;
  /** Checks the inputs; when they pass, sends the body. Takes the form's submit event. */
  handleSubmit: (event?: FormEvent) => void;
}

const withFieldTexts = (errors: FieldErrors, texts?: Partial<Record<string, string>>) =>
  Object.fromEntries(
    Object.entries(errors).map(([field, text]) => [field, texts?.[field.split('.')[0] ?? field] ?? text]),
  );

const fieldValue = (values: object, field: string) => (values as Record<string, unknown>)[field];

/**
 * The SPA's one way of doing a form (docs/adr/0038): the inputs in state, checked against the contract's zod schema
 * on every change, problems translated through i18next, the send's pending state and the server's field errors.
 */
export function useZodForm<V extends object, S extends z.ZodType, R = unknown>(
  options: ZodFormOptions<V, S, R>,
): ZodForm<V> {
  const { toBody, ns, keys } = options;
  const { t, i18n } = useTranslation(ns ? [ns, 'common'] : 'common');
  const [values, setValuesState] = useState(options.initialValues);
  const [touched, setTouched] = useState<Record<string, true>>({});
  const [submitted, setSubmitted] = useState(false);
  // The server's complaint about a field, with the value it was about: it goes once the user changes that field.
  const [server, setServer] = useState<{ field?: string; text?: string; about?: unknown; general?: string }>({});
  const [pending, setPending] = useState(false);
  const sending = useRef(false);
  // Read at submit time, so a caller may pass fresh callbacks on every render.
  const latest = useRef(options);
  latest.current = options;

  const latestValues = useRef(values);
  latestValues.current = values;

  const [loadedOnUse, setLoadedOnUse] = useState<S>();
  const loading = useRef<Promise<unknown>>(undefined);
  const schema = loadsOnUse(options.schema) ? loadedOnUse : options.schema;
  const use = () => {
    const given = latest.current.schema;
    if (loadsOnUse(given)) loading.current ??= given().then((loaded) => setLoadedOnUse(loaded));
  };
  // A send before the schema had loaded: made again once it has.
  const [sendQueued, setSendQueued] = useState(false);

  const body = useMemo(() => (toBody ? toBody(values) : values), [toBody, values]);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the texts follow the language.
  const check = useMemo(() => {
    if (!schema) return { ok: false as const, errors: {} as FieldErrors, order: [] as string[] };
    const parsed = schema.safeParse(body);
    return parsed.success
      ? { ok: true as const, data: body as z.input<S>, errors: {} as FieldErrors, order: [] as string[] }
      : {
          ok: false as const,
          errors: withFieldTexts(fieldErrors(t, parsed.error, body, ns, keys), options.fieldTexts),
          order: parsed.error.issues.map((i) => i.path.map(String).join('.')),
        };
  }, [schema, body, t, ns, keys, options.fieldTexts, i18n.language]);

  const shown = (field: string) => submitted || touched[field.split('.')[0] ?? field];
  const errors: FieldErrors = {};
  for (const [field, text] of Object.entries(check.errors)) if (shown(field)) errors[field] = text;
  if (server.field && server.text && fieldValue(values, server.field) === server.about)
    errors[server.field] ??= server.text;
  const first = check.order.find((field) => shown(field));

  const setValues = (update: (values: V) => V) => {
    use();
    setValuesState(update);
  };

  const handleSubmit = (event?: FormEvent) => {
    event?.preventDefault();
    setSubmitted(true);
    if (!schema) {
      use();
      setSendQueued(true);
      return;
    }
    if (!check.ok || sending.current) return;
    const { submit, onSuccess, failedText } = latest.current;
    const data = check.data;
    sending.current = true;
    setPending(true);
    setServer({});
    submit(data).then(
      (result) => {
        sending.current = false;
        setPending(false);
        onSuccess?.(result, data);
      },
      (error: unknown) => {
        sending.current = false;
        setPending(false);
        const e = apiError(error);
        // A server that refuses a field's value for the schema's reasons gets the form's own text for that field.
        const own =
          ns && e?.field && e.code === 'validation_failed' ? [`${ns}:${keys ?? 'validation'}.${e.field}`] : [];
        const text = e && (ns ? t([`${ns}:errors.${e.code}`, ...own], { defaultValue: e.message }) : e.message);
        // A field the form has no input for (a body-only field such as `translations`) would hide the refusal.
        const hasInput = e?.field !== undefined && (e.field.split('.')[0] ?? e.field) in latestValues.current;
        if (e?.field && text && hasInput)
          setServer({ field: e.field, text, about: fieldValue(latestValues.current, e.field) });
        else setServer({ general: text ?? failedText ?? t('common:form.failed') });
      },
    );
  };

  useEffect(() => {
    if (!sendQueued || !schema) return;
    setSendQueued(false);
    handleSubmit();
  });

  return {
    values,
    set: (name) => (value) => setValues((v) => ({ ...v, [name]: value })),
    setValues,
    touch: (name) => () => {
      use();
      setTouched((was) => (was[name] ? was : { ...was, [name]: true }));
    },
    errors,
    firstError: first === undefined ? undefined : check.errors[first],
    general: server.general,
    pending,
    valid: check.ok,
    reset: (next) => {
      setValuesState(next ?? latest.current.initialValues);
      setTouched({});
      setSubmitted(false);
      setServer({});
    },
    handleSubmit,
  };
}
