export type { ArchiveHourUpdate, ArchiveIndexPort } from '../ports.ts';
export { type ArchiveLease, type NatsLeaseOptions, natsArchiveLease } from './lease.ts';
export { localArchiveStore } from './local-store.ts';
export { type ArchiveDamage, decodeMembers, encodeMember } from './member.ts';
export { type NatsStoreOptions, natsArchiveStore } from './nats-store.ts';
export { openArchiveStoreSpec } from './open.ts';
export { type HourDamage, readArchive, readArchiveHours } from './reader.ts';
export {
  type ArchiveStore,
  type ArchiveStoreSpec,
  HOUR_MS,
  type HourKey,
  hourLabel,
  hoursBetween,
  parseHourLabel,
} from './store.ts';
export { type ArchiveOptions, ArchiveThread } from './thread.ts';
export { ARCHIVE_DEFAULTS, ArchiveWriter, type ArchiveWriterOptions } from './writer.ts';
