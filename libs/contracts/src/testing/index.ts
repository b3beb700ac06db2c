/*
 * Test data shared by the projects' tests (`@plink/contracts/testing`). Built with the rest of the contracts,
 * but only test code may import it: the lint rule on imports refuses it anywhere else, and the SPA's build
 * stops if its bundle reaches for it.
 */
import { pageFieldsSchema, type PageDto, type PublicPageDto, type StoredPageFields } from '../http/pages';
import { RELAYED_TOGETHER, type JobName, type RelayedGroup } from '../jobs/jobs';

/**
 * A page created with nothing but its slug: each field at the page schema's default, null where the schema has
 * none. Read from the schema itself, so a field added there with a default needs no change here.
 */
export function newPageFields(slug: string): StoredPageFields {
  const filled: Record<string, unknown> = pageFieldsSchema.parse({ slug });
  const fields = Object.keys(pageFieldsSchema.shape).map((name) => [name, filled[name] ?? null]);
  return Object.fromEntries(fields) as StoredPageFields;
}

const CREATED_AT = '2025-02-01T10:00:00.000Z';

/** A new page as its owner sees it (GET /api/pages), without views or leads; overrides replace fields. */
export function makePageDto(overrides: Partial<PageDto> = {}): PageDto {
  return {
    id: 1,
    userId: 1,
    ...newPageFields('free-guide'),
    views: 0,
    conversions: 0,
    pending: 0,
    conversionsWithoutVisit: 0,
    paused: false,
    createdAt: CREATED_AT,
    updatedAt: CREATED_AT,
    ...overrides,
  };
}

/**
 * A new page as a visitor gets it (GET /api/page/{slug}): the same fields less the owner's own (file, webhook,
 * author settings), and no author line; overrides replace fields.
 */
export function makePublicPageDto(overrides: Partial<PublicPageDto> = {}): PublicPageDto {
  const { fileUrl: _file, webhookUrl: _webhook, showUsername: _showUsername, authorName: _authorName, ...shown } = newPageFields('free-guide');
  return { ...shown, author: null, ...overrides };
}

/** A queue job as tests read it (a BullMQ `Job`, or anything with its name and envelope). */
interface QueuedJob {
  id?: string;
  name: string;
  data: { payload: unknown; meta?: unknown };
}

/**
 * The jobs named `name` among a queue's `jobs`, one per job recorded: a job the outbox relays in groups
 * ({@link RELAYED_TOGETHER}) stands in the queue inside its group's job, and comes out here as a job of its own
 * (the group's id, the name `name`, its own payload and correlation id), so a test reads what was recorded
 * whether the relay grouped it or not.
 */
export function recordedJobs<J extends QueuedJob>(jobs: readonly (J | undefined)[], name: string): J[] {
  const groupName = RELAYED_TOGETHER[name as JobName]?.as;
  return jobs.flatMap((job) => {
    if (!job) return [];
    if (job.name === name) return [job];
    if (groupName === undefined || job.name !== groupName) return [];
    const group = job.data.payload as RelayedGroup;
    const meta = (job.data.meta ?? {}) as Record<string, unknown>;
    return group.jobs.map((member) => ({ id: job.id, name, data: { payload: member.payload, meta: { ...meta, correlationId: member.correlationId } } }) as unknown as J);
  });
}
