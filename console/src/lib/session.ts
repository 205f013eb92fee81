// The spec's session-storage keys (section 3). The cookie is the real authority (decisions 1);
// these keys only drive the console's own state.

export interface SessionState {
  isAuthenticated: boolean;
  role: string;
  email: string;
}

export function readSession(): SessionState {
  return {
    isAuthenticated: sessionStorage.getItem('isAuthenticated') === 'true',
    role: sessionStorage.getItem('role') ?? '',
    email: sessionStorage.getItem('email_address') ?? '',
  };
}

export function writeSession(role: string, email: string): void {
  sessionStorage.setItem('isAuthenticated', 'true');
  sessionStorage.setItem('role', role);
  sessionStorage.setItem('email_address', email);
}

export function clearSession(): void {
  sessionStorage.clear();
}

export function isAdminRole(role: string): boolean {
  return role.trim().toUpperCase() === 'ADMIN';
}
