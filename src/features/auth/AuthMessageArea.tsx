import type { AuthMessage } from './auth-errors';

/** The forms' one message area (spec §4): an error or an info line, announced to assistive technology. */
export function AuthMessageArea({ message }: { message: AuthMessage | undefined }) {
  if (!message) return null;
  const error = message.type === 'error';
  return (
    <p
      data-testid="auth-message"
      data-type={message.type}
      data-code={message.code}
      role={error ? 'alert' : 'status'}
      className={`rounded-lg border px-3 py-2 text-sm ${
        error
          ? 'border-status-red/30 bg-status-red/10 text-status-red'
          : 'border-status-blue/30 bg-status-blue/10 text-ink'
      }`}
    >
      {message.text}
    </p>
  );
}
