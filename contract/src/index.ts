export * from './billing.ts';
export * from './catalogue.ts';
export * from './demo.ts';
export * from './errors.ts';
export * from './meta.ts';
export * from './money.ts';
export * from './organizations.ts';
export * from './user.ts';
