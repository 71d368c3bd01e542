// A bug in the UI must not take the host page with it: log once, close the dialog, keep the launcher.
import type { ComponentChildren } from 'preact';
import { useErrorBoundary } from 'preact/hooks';

export function ErrorBoundary({ onError, children }: { onError(error: unknown): void; children: ComponentChildren }) {
  const [error] = useErrorBoundary(onError);
  return error ? null : children;
}
