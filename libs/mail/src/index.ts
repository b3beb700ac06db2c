export * from './mail.port';
export * from './smtp.mailer';
export * from './folder.mailer';
export * from './mail.module';
