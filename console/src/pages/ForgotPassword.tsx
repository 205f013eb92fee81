import { Callout, Card } from '@blueprintjs/core';
import { useState } from 'react';
import type { FormEvent } from 'react';
import { Link } from 'react-router-dom';
import { AuthSubmit, EmailField } from '../components/AuthFields.tsx';
import { call } from '../lib/api.ts';
import { forgotPasswordError } from '../lib/validation.ts';
import './auth.css';

type Outcome = { intent: 'success' | 'danger'; text: string } | null;

export function ForgotPassword() {
  const [email, setEmail] = useState('');
  const [sending, setSending] = useState(false);
  const [outcome, setOutcome] = useState<Outcome>(null);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const problem = forgotPasswordError(email);
    if (problem) {
      setOutcome({ intent: 'danger', text: problem });
      return;
    }
    setSending(true);
    try {
      const body = await call('POST /api/forgot-password', {
        body: { email_address: email.trim() },
      });
      if (body.message === 'SUCCESS') {
        setOutcome({
          intent: 'success',
          text: 'Password reset link sent! Please check your email.',
        });
      } else {
        setOutcome({ intent: 'danger', text: 'Please enter the registered email address' });
      }
    } catch (error) {
      const message = error instanceof Error ? error.message : '';
      setOutcome({
        intent: 'danger',
        text:
          message === 'INVALID_EMAIL_ADDRESS' || !message
            ? 'Please enter the registered email address'
            : message,
      });
    } finally {
      setSending(false);
    }
  };

  return (
    <div className="hs-auth-page">
      <Card className="hs-auth-card" elevation={2}>
        <h1 className="hs-auth-title">Forgot your password?</h1>
        <p className="hs-muted">
          Enter the e-mail address you registered with and we will send you a reset link.
        </p>
        {outcome ? (
          <Callout
            intent={outcome.intent}
            icon={outcome.intent === 'success' ? 'tick-circle' : 'error'}
            className="hs-gap"
            role={outcome.intent === 'success' ? 'status' : 'alert'}
          >
            {outcome.text}
          </Callout>
        ) : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <EmailField id="forgot-email" value={email} onValueChange={setEmail} />
          <AuthSubmit text="Send Reset Link" loading={sending} />
        </form>
        <p className="hs-auth-footer">
          Remembered it? <Link to="/login">Back to sign in</Link>
        </p>
      </Card>
    </div>
  );
}
