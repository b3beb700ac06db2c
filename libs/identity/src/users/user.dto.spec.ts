import { User } from './user.entity';
import { toUserDto } from './user.dto';

describe('toUserDto', () => {
  it('never lets the password hash or a token leave the server', () => {
    const user = Object.assign(new User(), {
      id: 7,
      username: 'ada',
      email: 'ada@example.com',
      passwordHash: '$argon2id$v=19$secret',
      isVerified: false,
      verificationToken: 'a'.repeat(64),
      verificationTokenExpiry: new Date(),
      resetPasswordToken: 'b'.repeat(64),
      resetPasswordTokenExpiry: new Date(),
      isPremium: false,
      createdAt: new Date('2026-01-02T03:04:05Z'),
    });
    const dto = toUserDto(user);
    expect(dto).toEqual({ id: 7, username: 'ada', email: 'ada@example.com', isVerified: false, isPremium: false, createdAt: '2026-01-02T03:04:05.000Z', pendingEmail: null });
    expect(JSON.stringify(dto)).not.toMatch(/argon2|aaaa|bbbb/);
  });
});
