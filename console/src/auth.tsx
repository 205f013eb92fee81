// Session state for the console. Sign-in writes the spec's session-storage keys; on load
// GET /api/me restores or verifies them (the cookie is the authority, decisions section 1).
import { createContext, useCallback, useContext, useEffect, useMemo, useState } from 'react';
import type { ReactNode } from 'react';
import { call, fetchMe } from './lib/api.ts';
import { clearSession, isAdminRole, readSession, writeSession } from './lib/session.ts';
import type { SessionState } from './lib/session.ts';

export interface AuthValue extends SessionState {
  /** True once GET /api/me has answered (or failed). */
  verified: boolean;
  isAdmin: boolean;
  name: string;
  products: string[];
  signIn: (role: string, email: string) => void;
  signOut: () => Promise<void>;
  /** Forget the local session (after a 401). */
  drop: () => void;
}

const AuthContext = createContext<AuthValue | null>(null);

export function AuthProvider({ children }: { children: ReactNode }) {
  const [session, setSession] = useState<SessionState>(() => readSession());
  const [verified, setVerified] = useState(false);
  const [name, setName] = useState('');
  const [products, setProducts] = useState<string[]>([]);

  // Not useResource: the answer writes session storage and seeds state that signIn and drop also set.
  useEffect(() => {
    let live = true;
    fetchMe()
      .then((me) => {
        if (!live) return;
        if (me && me.email) {
          writeSession(me.role, me.email);
          setName(me.name);
          setProducts(me.products);
        } else {
          clearSession();
        }
        setSession(readSession());
        setVerified(true);
      })
      .catch(() => {
        // Server unreachable: keep what session storage says; the next call will tell.
        if (live) setVerified(true);
      });
    return () => {
      live = false;
    };
  }, []);

  const signIn = useCallback((role: string, email: string) => {
    writeSession(role, email);
    setSession(readSession());
    setVerified(true);
    fetchMe()
      .then((me) => {
        if (me) {
          setName(me.name);
          setProducts(me.products);
        }
      })
      .catch(() => undefined);
  }, []);

  const drop = useCallback(() => {
    clearSession();
    setSession(readSession());
    setName('');
    setProducts([]);
  }, []);

  const signOut = useCallback(async () => {
    try {
      await call('POST /api/logout');
    } catch {
      // The local session ends regardless; the server session expires on its own.
    }
    drop();
  }, [drop]);

  const value = useMemo<AuthValue>(
    () => ({
      ...session,
      verified,
      isAdmin: isAdminRole(session.role),
      name,
      products,
      signIn,
      signOut,
      drop,
    }),
    [session, verified, name, products, signIn, signOut, drop],
  );
  return <AuthContext.Provider value={value}>{children}</AuthContext.Provider>;
}

export function useAuth(): AuthValue {
  const value = useContext(AuthContext);
  if (!value) throw new Error('useAuth outside AuthProvider');
  return value;
}
