// The security check is optional (data-turnstile-sitekey), so its code is a chunk of its own,
// fetched only by sites that turn it on.
import { h } from 'preact';
import { useEffect, useState } from 'preact/hooks';
import type { FunctionComponent } from 'preact';
import type { TurnstileProps } from './Turnstile.tsx';

export function LazyTurnstile(props: TurnstileProps) {
  const [Loaded, setLoaded] = useState<FunctionComponent<TurnstileProps> | null>(null);
  useEffect(() => {
    import('./Turnstile.tsx').then((module) => setLoaded(() => module.Turnstile), props.onFailure);
  }, []);
  return Loaded ? <Loaded {...props} /> : null;
}
