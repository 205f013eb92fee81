// Fields the sign-in and password pages share, so that they look and read the same on each.
import { Button, FormGroup, InputGroup } from '@blueprintjs/core';

/** The e-mail address a user signs in or asks for a reset link with. */
export function EmailField({
  id,
  value,
  onValueChange,
}: {
  id: string;
  value: string;
  onValueChange: (value: string) => void;
}) {
  return (
    <FormGroup label="Email" labelFor={id}>
      <InputGroup
        id={id}
        type="email"
        autoComplete="email"
        leftIcon="envelope"
        value={value}
        onValueChange={onValueChange}
        large
      />
    </FormGroup>
  );
}

/** The full-width button that sends an auth form. */
export function AuthSubmit({ text, loading }: { text: string; loading: boolean }) {
  return <Button type="submit" intent="primary" size="large" fill loading={loading} text={text} />;
}
