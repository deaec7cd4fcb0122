import { useState } from 'react';
import { Icon } from './Icon';

/** The user's photo, or the default user icon when there is none (or it fails to load). */
export function Avatar({
  photoURL,
  size = 32,
  className = '',
}: {
  photoURL?: string;
  size?: number;
  className?: string;
}) {
  const [broken, setBroken] = useState(false);
  if (photoURL && !broken) {
    return (
      <img
        src={photoURL}
        alt=""
        width={size}
        height={size}
        onError={() => setBroken(true)}
        className={`shrink-0 rounded-full object-cover ring-1 ring-line-strong ${className}`}
        style={{ width: size, height: size }}
      />
    );
  }
  return (
    <span
      data-testid="default-avatar"
      className={`flex shrink-0 items-center justify-center rounded-full bg-raised text-muted ring-1 ring-line-strong ${className}`}
      style={{ width: size, height: size }}
    >
      <Icon name="user" size={Math.round(size * 0.55)} />
    </span>
  );
}
