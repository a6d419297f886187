import { Component, type ErrorInfo, type ReactNode } from "react";
import { notify } from "@/lib/notify.ts";

interface ErrorBoundaryProps {
  children: ReactNode;
  fallback: ReactNode;
}

/** An uncaught rendering error becomes an error toast with its message; the fallback replaces the broken tree. */
export class ErrorBoundary extends Component<ErrorBoundaryProps, { failed: boolean }> {
  override state = { failed: false };

  static getDerivedStateFromError(): { failed: boolean } {
    return { failed: true };
  }

  override componentDidCatch(error: Error, _info: ErrorInfo): void {
    notify("error", error.message);
  }

  override render(): ReactNode {
    return this.state.failed ? this.props.fallback : this.props.children;
  }
}
