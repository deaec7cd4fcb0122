export * from './catalogue.ts';
export * from './demo.ts';
export * from './errors.ts';
export * from './meta.ts';
export * from './user.ts';
export * from './organizations.ts';
