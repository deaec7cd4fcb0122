import { type KeyboardEvent, useId, useLayoutEffect, useMemo, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import PhoneInput, { type Country, type Labels } from 'react-phone-number-input';
import en from 'react-phone-number-input/locale/en.json';
import nl from 'react-phone-number-input/locale/nl.json';
import { fieldClass } from '../../components/form';
import { CountrySelect } from './CountrySelect';
import {
  currentEntry,
  type History,
  historyCommand,
  recordEntry,
  redoEntry,
  startHistory,
  undoEntry,
} from './phone-history';

/** Spec §5: the phone field starts on the Netherlands. */
export const DEFAULT_PHONE_COUNTRY: Country = 'NL';

/** Puts text into the input as if typed, so React and the formatter see an ordinary input event. */
function replaceText(element: HTMLInputElement, text: string) {
  Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value')?.set?.call(element, text);
  element.dispatchEvent(new Event('input', { bubbles: true }));
}

const countryNames: Record<string, Labels> = { en, nl };

/**
 * Phone number with a country selector (react-phone-number-input): only digits are accepted and they are formatted
 * by the chosen country's mask; Ctrl/Cmd+Z undoes and Ctrl/Cmd+Shift+Z or Ctrl/Cmd+Y redoes, over at most 20
 * entries. The value is E.164 ('+31612345678') or undefined when empty.
 */
export function PhoneField({
  label,
  value,
  onChange,
  onBlur,
  error,
  markedRequired = false,
  disabled,
}: {
  label: string;
  value: string | undefined;
  onChange: (value: string | undefined) => void;
  onBlur?: () => void;
  error?: string;
  markedRequired?: boolean;
  disabled?: boolean;
}) {
  const { t, i18n } = useTranslation('demo');
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  // The history holds the text as shown ("06 12345678"): replaying it as typed input lets the library parse and
  // format it exactly as the user saw it, where an E.164 value would come back in another format.
  const history = useRef<History<string>>(startHistory(''));
  const input = () => box.current?.querySelector('input') ?? null;

  // biome-ignore lint/correctness/useExhaustiveDependencies: records the shown text whenever the value changed
  useLayoutEffect(() => {
    history.current = recordEntry(history.current, input()?.value ?? '');
  }, [value]);

  const onKeyDown = (event: KeyboardEvent<HTMLInputElement>) => {
    const command = historyCommand(event);
    if (!command) return;
    // The browser's own undo would fight the formatting; ours replays whole entries.
    event.preventDefault();
    const moved = command === 'undo' ? undoEntry(history.current) : redoEntry(history.current);
    const element = input();
    if (moved === history.current || !element) return;
    history.current = moved;
    replaceText(element, currentEntry(moved));
  };

  const language = i18n.resolvedLanguage ?? i18n.language ?? 'en';
  const countryLabel = t('phone.country');
  // A new labels object makes the library sort its ~250 countries again, so it only changes with the language.
  const labels = useMemo(
    () => ({ ...(countryNames[language.slice(0, 2)] ?? en), country: countryLabel }),
    [language, countryLabel],
  );
  return (
    <div ref={box} className="flex flex-col gap-1.5">
      <label htmlFor={id} className="text-sm font-medium text-muted">
        {t('common:form.labelWithColon', { label })}
        {markedRequired && (
          <span aria-hidden="true" className="ml-0.5 text-status-red">
            *
          </span>
        )}
      </label>
      <PhoneInput
        id={id}
        value={value}
        onChange={onChange}
        onBlur={onBlur}
        defaultCountry={DEFAULT_PHONE_COUNTRY}
        initialValueFormat="national"
        labels={labels}
        countrySelectComponent={CountrySelect}
        // Focus stays on the selector, as on a native select, so type-ahead can go on after the first match.
        focusInputOnCountrySelection={false}
        disabled={disabled}
        autoComplete="tel"
        className="flex items-center gap-2"
        numberInputProps={{
          className: `${fieldClass} h-10 text-sm`,
          onKeyDown,
          'aria-required': markedRequired || undefined,
          'aria-invalid': error ? true : undefined,
          'aria-describedby': error ? `${id}-error` : undefined,
        }}
      />
      {error && (
        <p id={`${id}-error`} className="text-xs text-status-red">
          {error}
        </p>
      )}
    </div>
  );
}
