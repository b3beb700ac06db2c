import type { z } from 'zod';
import { EVENTS, EVENT_NAMES, type EventDeclaration } from './events';
import type { ServiceName } from './queues';

/** A zod type as a short name for the docs (`string | null`, `{ slug, … }`). */
function typeName(schema: z.ZodType): string {
  const def = (schema as unknown as { def: { type: string; innerType?: z.ZodType; values?: unknown[]; entries?: Record<string, unknown>; shape?: Record<string, z.ZodType> } }).def;
  switch (def.type) {
    case 'nullable':
      return `${typeName(def.innerType!)} | null`;
    case 'optional':
      return `${typeName(def.innerType!)} (optional)`;
    case 'literal':
      return def.values!.map((v) => JSON.stringify(v)).join(' | ');
    case 'enum':
      return Object.keys(def.entries!).map((v) => `'${v}'`).join(' | ');
    case 'object':
      return `{ ${Object.keys((schema as unknown as { shape: Record<string, unknown> }).shape).join(', ')} }`;
    case 'record':
      return 'object';
    default:
      return def.type;
  }
}

/**
 * docs/events.md: the event graph as the declarations in events.ts make it, so the doc cannot drift from the
 * code (a test compares the committed file with this).
 */
export function eventsDoc(): string {
  const lines = [
    '# Events: the facts services share',
    '',
    '<!-- Generated from libs/contracts/src/jobs/events.ts by eventsDoc(); a test checks it. Update with:',
    '     UPDATE_DOCS=1 npm test -- --projects=@plink/contracts -->',
    '',
    'A fact that more than one service keeps has one owner, the only service that changes it. The owner',
    'publishes each change in the transaction that makes it (`Outbox.publish`), which writes one message per',
    "subscriber, on the subscriber's own queue: every copy is one hop from its owner, and no service passes on",
    "another's fact. A copy orders the changes by the payload's version and keeps the newest, so duplicates and",
    'messages that arrive late change nothing. Work for one service ("send this e-mail", "deliver this',
    'webhook") is a job, not an event.',
    '',
    '| Event | Owner | Subscribers (queue) |',
    '|---|---|---|',
  ];
  for (const name of EVENT_NAMES) {
    const event = EVENTS[name] as EventDeclaration;
    const subscribers = Object.entries(event.subscribers as Partial<Record<ServiceName, string>>).map(([service, queue]) => `${service} (\`${queue}\`)`);
    lines.push(`| \`${name}\` | ${event.owner} | ${subscribers.join(', ')} |`);
  }
  lines.push('', '```mermaid', 'flowchart LR');
  for (const name of EVENT_NAMES) {
    const event = EVENTS[name] as EventDeclaration;
    for (const service of Object.keys(event.subscribers)) lines.push(`  ${event.owner} -- ${name} --> ${service}`);
  }
  lines.push('```');
  for (const name of EVENT_NAMES) {
    const event = EVENTS[name] as EventDeclaration;
    lines.push('', `## \`${name}\``, '', event.summary, '', '| Field | Type |', '|---|---|');
    const shape = (event.schema as unknown as { shape: Record<string, z.ZodType> }).shape;
    for (const [field, schema] of Object.entries(shape)) lines.push(`| \`${field}\` | ${typeName(schema).replace(/\|/g, '\\|')} |`);
  }
  return `${lines.join('\n')}\n`;
}
