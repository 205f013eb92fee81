import { Navigate, useLocation } from 'react-router-dom';
import type { ReactNode } from 'react';
import { NonIdealState, Spinner } from '@blueprintjs/core';
import { ERROR_MESSAGES } from '../../../contract/errors.ts';
import { useAuth } from '../auth.tsx';

/** Protected routes redirect to /login when not authenticated (spec section 2). */
export function RequireAuth({ children }: { children: ReactNode }) {
  const auth = useAuth();
  const location = useLocation();
  if (!auth.isAuthenticated || !auth.email) {
    if (!auth.verified) return <Spinner className="hs-page-spinner" aria-label="Loading" />;
    return <Navigate to="/login" replace state={{ from: location.pathname }} />;
  }
  return <>{children}</>;
}

/** The plain page for non-admins (decisions section 1), titled as the server's FORBIDDEN. */
export function AdministratorsOnly() {
  return (
    <div className="hs-page">
      <NonIdealState
        icon="lock"
        title={ERROR_MESSAGES.FORBIDDEN}
        description="This page is available to administrators. Ask an administrator if you need access."
      />
    </div>
  );
}

export function RequireAdmin({ children }: { children: ReactNode }) {
  const auth = useAuth();
  if (!auth.isAdmin) return <AdministratorsOnly />;
  return <>{children}</>;
}
