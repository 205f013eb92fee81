// A known-device cookie is good only for the account it was given to, with that account's
// current password, and unchanged.
import { describe, expect, it } from 'vitest';
import { DEVICE_COOKIE, deviceCookie, knownDeviceId, newDeviceId } from './known-devices.ts';

const owner = { id: 7, password_hash: 'scrypt$16384$8$1$c2FsdA==$aGFzaA==' };

function valueOf(setCookie: string): string {
  const pair = setCookie.split(';')[0]!;
  expect(pair.startsWith(`${DEVICE_COOKIE}=`)).toBe(true);
  return pair.slice(DEVICE_COOKIE.length + 1);
}

describe('known devices', () => {
  it('recognises its own cookie, for the sign-in call only, HttpOnly, Secure over https', () => {
    const id = newDeviceId();
    const header = deviceCookie(owner, id, true);
    expect(knownDeviceId(valueOf(header), owner)).toBe(id);
    expect(header).toContain('Path=/api/check-valid-user/');
    expect(header).toContain('HttpOnly');
    expect(header).toContain('Secure');
    expect(deviceCookie(owner, id, false)).not.toContain('Secure');
  });

  it('refuses another account, a changed password, a tampered id or signature, and junk', () => {
    const id = newDeviceId();
    const value = valueOf(deviceCookie(owner, id, false));
    const [, , sig] = value.split('.');
    expect(knownDeviceId(value, { ...owner, id: 8 })).toBeNull();
    expect(knownDeviceId(value.replace(/^7\./, '8.'), { ...owner, id: 8 })).toBeNull();
    expect(knownDeviceId(value, { ...owner, password_hash: owner.password_hash + 'x' })).toBeNull();
    expect(knownDeviceId(`7.${newDeviceId()}.${sig}`, owner)).toBeNull();
    expect(knownDeviceId(value.slice(0, -1) + (value.endsWith('A') ? 'B' : 'A'), owner)).toBeNull();
    for (const junk of [undefined, '', '7', '7..', `${value}.x`, `7.${id}.`, 'a.b.c'])
      expect(knownDeviceId(junk, owner)).toBeNull();
  });
});
