// Blueprint toasts with the spec's titles and durations (section 8; default 5 s).
import { OverlayToaster, Position } from '@blueprintjs/core';
import type { Intent, Toaster } from '@blueprintjs/core';
import { createElement } from 'react';

let toasterPromise: Promise<Toaster> | null = null;

function toaster(): Promise<Toaster> {
  toasterPromise ??= OverlayToaster.createAsync({ position: Position.TOP_RIGHT, maxToasts: 4 });
  return toasterPromise;
}

export interface ToastOptions {
  title: string;
  message?: string;
  intent?: Intent;
  timeout?: number;
}

export function showToast({
  title,
  message,
  intent = 'danger',
  timeout = 5000,
}: ToastOptions): void {
  const body = createElement(
    'div',
    { className: 'hs-toast' },
    createElement('strong', { className: 'hs-toast-title' }, title),
    message ? createElement('div', { className: 'hs-toast-message' }, message) : null,
  );
  const icon =
    intent === 'success'
      ? 'tick-circle'
      : intent === 'warning'
        ? 'warning-sign'
        : intent === 'primary'
          ? 'info-sign'
          : 'error';
  void toaster().then((t) => t.show({ message: body, intent, timeout, icon }));
}

export const toastError = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'danger', timeout });
export const toastWarning = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'warning', timeout });
export const toastSuccess = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'success', timeout });
export const toastInfo = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'primary', timeout });
