// A bug in the UI must not take the host page with it: log once, close the dialog, keep the launcher.
import { Component, type ComponentChildren } from 'preact';

export interface ErrorBoundaryProps {
  onError(error: unknown): void;
  children: ComponentChildren;
}

export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  // State set in the constructor, not as a class field: fields cost a runtime helper at our build target.
  constructor(props: ErrorBoundaryProps) {
    super(props);
    this.state = { failed: false };
  }

  override componentDidCatch(error: unknown): void {
    this.setState({ failed: true });
    this.props.onError(error);
  }

  override render() {
    return this.state.failed ? null : this.props.children;
  }
}
