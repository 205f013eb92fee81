import { Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate, useSearchParams } from 'react-router-dom';
import { AuthSubmit } from '../components/AuthFields.tsx';
import { call, errorMessage } from '../lib/api.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';
import { MIN_PASSWORD_LENGTH } from '../lib/validation.ts';
import type { LoginNotice } from './Login.tsx';
import './auth.css';

const UPDATED = 'Your password has been updated.';
const TOO_SHORT = `Password must be at least ${MIN_PASSWORD_LENGTH} characters`;

/** Why the field is not ready to send, once a submit was tried. */
function fieldProblem(password: string): string | null {
  if (password === '') return 'New Password is required';
  if (password.length < MIN_PASSWORD_LENGTH) return TOO_SHORT;
  return null;
}

export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const navigate = useNavigate();
  const [password, setPassword] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (fieldProblem(password)) return;
    setSaving(true);
    try {
      await call('POST /api/reset-password', { body: { token, new_password: password } });
      // Done here: the next step is signing in with the new password.
      const state: LoginNotice = { notice: `${UPDATED} Sign in with your new password.` };
      void navigate('/login', { replace: true, state });
      toastSuccess('Success', UPDATED);
    } catch (error) {
      toastError(
        'Error',
        `There was an error updating your password. ${errorMessage(error, '')}`.trim(),
      );
      setSaving(false);
    }
  };

  const problem = attempted ? fieldProblem(password) : null;
  const missing = problem !== null;
  return (
    <div className="hs-auth-page">
      <Card className="hs-auth-card" elevation={2}>
        <h1 className="hs-auth-title">Choose a new password</h1>
        {!token ? (
          <Callout intent="warning" icon="warning-sign" className="hs-gap">
            This page needs the link from your reset e-mail.
          </Callout>
        ) : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <FormGroup
            label="New Password"
            labelFor="new-password"
            labelInfo="(required)"
            intent={missing ? 'danger' : 'none'}
            helperText={problem ?? undefined}
          >
            <InputGroup
              id="new-password"
              type="password"
              required
              autoComplete="new-password"
              placeholder="Enter new password"
              leftIcon="lock"
              value={password}
              onValueChange={setPassword}
              intent={missing ? 'danger' : 'none'}
              large
            />
          </FormGroup>
          <AuthSubmit text="Reset Password" loading={saving} />
        </form>
        <p className="hs-auth-footer">
          <Link to="/login">Log in</Link>
        </p>
      </Card>
    </div>
  );
}
