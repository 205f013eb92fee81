import { Button, Callout, Card, FormGroup, InputGroup } from '@blueprintjs/core';
import { useEffect, useState } from 'react';
import type { FormEvent } from 'react';
import { Link, useNavigate } from 'react-router-dom';
import { AuthSubmit } from '../components/AuthFields.tsx';
import { call } from '../lib/api.ts';
import { registrationErrors } from '../lib/validation.ts';
import type { RegistrationErrors, RegistrationInput } from '../lib/validation.ts';
import './auth.css';
import './Register.css';

const REDIRECT_AFTER_MS = 2000;

export function Register() {
  const navigate = useNavigate();
  const [form, setForm] = useState<RegistrationInput>({
    name: '',
    email: '',
    password: '',
    confirmPassword: '',
  });
  const [locations, setLocations] = useState<string[]>(['']);
  const [errors, setErrors] = useState<RegistrationErrors>({});
  const [submitting, setSubmitting] = useState(false);
  const [failure, setFailure] = useState<string | null>(null);
  const [success, setSuccess] = useState(false);

  useEffect(() => {
    if (!success) return;
    const timer = setTimeout(() => void navigate('/login'), REDIRECT_AFTER_MS);
    return () => clearTimeout(timer);
  }, [success, navigate]);

  const field = (key: keyof RegistrationInput) => (value: string) => {
    setForm((f) => ({ ...f, [key]: value }));
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const found = registrationErrors(form);
    setErrors(found);
    if (Object.keys(found).length > 0) return;
    setSubmitting(true);
    setFailure(null);
    try {
      await call('POST /api/register-user/', {
        body: { ...form, email: form.email.trim(), locations },
      });
      setSuccess(true);
    } catch (error) {
      setFailure(
        error instanceof Error && error.message ? error.message : 'Error during registration',
      );
    } finally {
      setSubmitting(false);
    }
  };

  const input = (
    key: keyof RegistrationInput,
    label: string,
    type: string,
    autoComplete: string,
  ) => (
    <FormGroup
      label={label}
      labelFor={`register-${key}`}
      labelInfo="(required)"
      intent={errors[key] ? 'danger' : 'none'}
      helperText={errors[key]}
    >
      <InputGroup
        id={`register-${key}`}
        type={type}
        autoComplete={autoComplete}
        value={form[key]}
        onValueChange={field(key)}
        intent={errors[key] ? 'danger' : 'none'}
      />
    </FormGroup>
  );

  return (
    <div className="hs-auth-page">
      <Card className="hs-auth-card hs-auth-card-wide" elevation={2}>
        <h1 className="hs-auth-title">Create your account</h1>
        <p className="hs-muted">Register your apiary and the hive locations you monitor.</p>
        {success ? (
          <Callout intent="success" icon="tick-circle" className="hs-gap" role="status">
            Registration successful! <Link to="/login">Go to Login</Link>
          </Callout>
        ) : null}
        {failure ? (
          <Callout intent="danger" icon="error" className="hs-gap" role="alert">
            {failure}
          </Callout>
        ) : null}
        <form onSubmit={(e) => void submit(e)} noValidate>
          <div className="hs-form-grid">
            {input('name', 'Name', 'text', 'name')}
            {input('email', 'Email', 'email', 'email')}
            {input('password', 'Password', 'password', 'new-password')}
            {input('confirmPassword', 'Confirm Password', 'password', 'new-password')}
          </div>
          <fieldset className="hs-fieldset">
            <legend>Hive locations</legend>
            {locations.map((value, index) => (
              <div className="hs-location-row" key={index}>
                <FormGroup
                  label={`Hive Location ${index + 1}`}
                  labelFor={`hive-location-${index}`}
                  className="hs-grow"
                >
                  <InputGroup
                    id={`hive-location-${index}`}
                    leftIcon="map-marker"
                    placeholder="e.g., North apiary"
                    value={value}
                    onValueChange={(v) =>
                      setLocations((all) => all.map((l, i) => (i === index ? v : l)))
                    }
                  />
                </FormGroup>
                <Button
                  icon="trash"
                  variant="minimal"
                  intent="danger"
                  aria-label={`Delete Hive Location ${index + 1}`}
                  onClick={() => setLocations((all) => all.filter((_, i) => i !== index))}
                />
              </div>
            ))}
            <Button
              icon="add"
              variant="outlined"
              text="Add Another Hive Location"
              onClick={() => setLocations((all) => [...all, ''])}
            />
          </fieldset>
          <AuthSubmit text="Register" loading={submitting} />
        </form>
        <p className="hs-auth-footer">
          Already registered? <Link to="/login">Sign in</Link>
        </p>
      </Card>
    </div>
  );
}
