import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useSearchParams } from 'react-router-dom';
import { post } from '../lib/api.ts';
import { toastError, toastSuccess } from '../lib/toaster.ts';

export function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [password, setPassword] = useState('');
  const [attempted, setAttempted] = useState(false);
  const [saving, setSaving] = useState(false);
  const [done, setDone] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setAttempted(true);
    if (password === '') return;
    setSaving(true);
    try {
      await post('/api/reset-password', { token, new_password: password });
      setDone(true);
      setPassword('');
      toastSuccess('Success', 'Your password has been updated.');
    } catch {
      toastError('Error', 'There was an error updating your password.');
    } finally {
      setSaving(false);
    }
  };

  const missing = attempted && password === '';
  return (
    <div className="hs-auth-page">
      <Card className="hs-auth-card" elevation={2}>
        <h1 className="hs-auth-title">Choose a new password</h1>
        {!token ? (
          <Callout intent="warning" icon="warning-sign" className="hs-gap">
            This page needs the link from your reset e-mail.
          </Callout>
        ) : null}
        {done ? (
          <Callout intent="success" icon="tick-circle" className="hs-gap" role="status">
            Your password has been updated.
          </Callout>
        ) : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <FormGroup
            label="New Password"
            labelFor="new-password"
            labelInfo="(required)"
            intent={missing ? 'danger' : 'none'}
            helperText={missing ? 'New Password is required' : undefined}
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
          <Button
            type="submit"
            intent="primary"
            size="large"
            fill
            loading={saving}
            text="Reset Password"
          />
        </form>
        <p className="hs-auth-footer">
          <Link to="/login">Log in</Link>
        </p>
      </Card>
    </div>
  );
}
