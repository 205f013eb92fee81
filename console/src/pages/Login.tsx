import { Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, Navigate, useLocation, useNavigate } from 'react-router-dom';
import { useAuth } from '../auth.tsx';
import { AuthSubmit, EmailField } from '../components/AuthFields.tsx';
import { callText } from '../lib/api.ts';
import { INVALID_CREDENTIALS, signInFailure } from '../lib/signInError.ts';
import { loginError } from '../lib/validation.ts';
import './auth.css';

/** Navigation state a screen hands to /login, e.g. after a password reset. */
export interface LoginNotice {
  notice?: string;
}

export function Login() {
  const auth = useAuth();
  const navigate = useNavigate();
  const notice = (useLocation().state as LoginNotice | null)?.notice;
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const [loading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  if (auth.isAuthenticated && auth.email) return <Navigate to="/" replace />;

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const typedEmail = email.trim();
    const typedPassword = password;
    // Fields are cleared after every attempt (spec section 2).
    setEmail('');
    setPassword('');
    const problem = loginError(typedEmail, typedPassword);
    // One place for the error: the alert above the form (a toast as well said it twice).
    if (problem) {
      setError(problem);
      return;
    }
    setLoading(true);
    setError(null);
    try {
      const answer = await callText('POST /api/check-valid-user/', {
        body: { email_address: typedEmail, password: typedPassword },
      });
      const role = answer.trim();
      if (!role) throw new Error(INVALID_CREDENTIALS);
      auth.signIn(role, typedEmail);
      void navigate('/', { replace: true });
    } catch (failure) {
      setError(signInFailure(failure));
    } finally {
      setLoading(false);
    }
  };

  return (
    <div className="hs-auth-page">
      <Card className="hs-auth-card" elevation={2}>
        <h1 className="hs-auth-title">Sign in</h1>
        <p className="hs-muted">
          Welcome back. Sign in to upload hive footage and read your reports.
        </p>
        {notice && !error ? (
          <Callout intent="success" icon="tick-circle" className="hs-gap" role="status">
            {notice}
          </Callout>
        ) : null}
        {error ? (
          <Callout intent="danger" icon="error" className="hs-gap" role="alert">
            {error}
          </Callout>
        ) : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <EmailField id="login-email" value={email} onValueChange={setEmail} />
          <FormGroup label="Password" labelFor="login-password">
            <InputGroup
              id="login-password"
              type="password"
              autoComplete="current-password"
              leftIcon="lock"
              value={password}
              onValueChange={setPassword}
              large
            />
          </FormGroup>
          <AuthSubmit text="Sign In" loading={loading} />
        </form>
        <ul className="hs-auth-links">
          <li>
            No account yet? <Link to="/register">Register here</Link>
          </li>
          <li>
            Forgot your password? <Link to="/forgot-password">Reset it here</Link>
          </li>
          <li>
            Compare our <Link to="/beeplans">Free and Premium plans</Link>
          </li>
          <li>
            New to hivesight? Read the <Link to="/instructions">instructions</Link>
          </li>
        </ul>
      </Card>
    </div>
  );
}
