export * from './outbound-address';
