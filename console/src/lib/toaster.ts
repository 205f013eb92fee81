// Blueprint toasts with the spec's titles and durations (section 8; default 5 s). They sit at
// the bottom so they never cover the navigation or Logout, and each belongs to the screen it was
// raised on: leaving that screen dismisses it (dismissToastsNotOn, called on every navigation).
import { OverlayToaster, Position } from '@blueprintjs/core';
import type { Intent, Toaster } from '@blueprintjs/core';
import { createElement } from 'react';
import './toaster.css';

let toasterPromise: Promise<Toaster> | null = null;

function toaster(): Promise<Toaster> {
  toasterPromise ??= OverlayToaster.createAsync({ position: Position.BOTTOM_RIGHT, maxToasts: 4 });
  return toasterPromise;
}

/** Open toasts by key, with the path they were raised on. */
const openToasts = new Map<string, string>();

/** Dismisses every open toast raised on another path than `path`. */
export function dismissToastsNotOn(path: string): void {
  const stale = [...openToasts].filter(([, on]) => on !== path).map(([key]) => key);
  if (stale.length === 0) return;
  void toaster().then((t) => {
    for (const key of stale) {
      t.dismiss(key);
      openToasts.delete(key);
    }
  });
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
  // The path now, not when the toaster answers: a screen that navigates and then toasts (a
  // password reset going on to sign-in) means the toast for the screen it went to.
  const path = window.location.pathname;
  void toaster().then((t) => {
    const key = t.show({
      message: body,
      intent,
      timeout,
      icon,
      onDismiss: () => openToasts.delete(key),
    });
    openToasts.set(key, path);
  });
}

export const toastError = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'danger', timeout });
export const toastWarning = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'warning', timeout });
export const toastSuccess = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'success', timeout });
export const toastInfo = (title: string, message?: string, timeout?: number): void =>
  showToast({ title, message, intent: 'primary', timeout });
