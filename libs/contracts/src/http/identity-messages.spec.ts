import { IdentityMessages, tooManyLoginAttemptsMessage } from '../index';

describe('the login wait message', () => {
  it('names the real wait in seconds or minutes, and is the 15-minute text at the longest', () => {
    expect(tooManyLoginAttemptsMessage(1)).toBe('Too many failed login attempts. Please wait 1 second and try again.');
    expect(tooManyLoginAttemptsMessage(0.2)).toBe('Too many failed login attempts. Please wait 1 second and try again.');
    expect(tooManyLoginAttemptsMessage(32)).toBe('Too many failed login attempts. Please wait 32 seconds and try again.');
    expect(tooManyLoginAttemptsMessage(60)).toBe('Too many failed login attempts. Please wait 1 minute and try again.');
    expect(tooManyLoginAttemptsMessage(61)).toBe('Too many failed login attempts. Please wait 2 minutes and try again.');
    expect(tooManyLoginAttemptsMessage(900)).toBe(IdentityMessages.tooManyLoginAttempts);
  });
});
