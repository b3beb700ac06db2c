import type { ReactNode } from 'react';
import { Anchor, Button, Center, Group, Loader, Modal, Stack, Text } from '@mantine/core';
import { consentRecordFilename, type ConsentRecordDto, type LeadEvidenceEvent, type LeadStatus } from '@plink/contracts';
import { IconDownload } from '../../../components/icons';
import { errorText } from '../../../lib/api-client';
import { consentRecordUrl } from '../api/consent-record.api';
import { useConsentRecord } from '../hooks/useConsentRecord';

const formatTime = (iso: string) => new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' });
/** Long values (hashes, user agents, addresses) wrap anywhere rather than widen the dialog. */
const wrap = { overflowWrap: 'anywhere' } as const;

function Field({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div>
      <Text component="dt" size="xs" c="dimmed" fw={700} tt="uppercase">
        {label}
      </Text>
      <Text component="dd" m={0} style={wrap}>
        {children}
      </Text>
    </div>
  );
}

function who(event: LeadEvidenceEvent): string {
  if (event.ip === null && event.userAgent === null) return 'Not kept on this server';
  return [event.ip, event.userAgent].filter(Boolean).join(' · ');
}

function RecordFields({ record, pending }: { record: ConsentRecordDto; pending: boolean }) {
  const shown = record.consentShown;
  return (
    <Stack component="dl" gap="sm" m={0}>
      <Field label="Email">{record.email}</Field>
      <Field label="Signed up">{formatTime(record.signup.at)}</Field>
      <Field label="Consent text shown">
        {shown === false
          ? 'None: the page hid its privacy checkbox'
          : shown === null
            ? 'Not recorded (the lead came before consent records were kept)'
            : `“${record.consentText ?? ''}”`}
      </Field>
      {record.privacyUrl && (
        <Field label="Privacy link shown">
          <Anchor href={record.privacyUrl} target="_blank" rel="noopener noreferrer">
            {record.privacyUrl}
          </Anchor>
        </Field>
      )}
      {shown && <Field label="Consent given">{record.consentAt ? formatTime(record.consentAt) : 'No'}</Field>}
      {record.consentVersion && (
        <Field label="Text version (SHA-256)">
          <Text component="span" ff="monospace" size="sm">
            {record.consentVersion}
          </Text>
        </Field>
      )}
      <Field label="IP address and browser at sign-up">{who(record.signup)}</Field>
      <Field label="Address confirmed">
        {record.confirmation ? `${formatTime(record.confirmation.at)} · ${who(record.confirmation)}` : pending ? 'Not yet (waiting for the visitor to confirm)' : 'Not asked'}
      </Field>
    </Stack>
  );
}

interface ConsentRecordDialogProps {
  pageId: number;
  /** The lead whose record is open; null: closed. */
  lead: { id: number; email: string; status?: LeadStatus } | null;
  onClose: () => void;
}

/**
 * A lead's consent record, as its creator would show it to an authority or to the person who asks: what the
 * page showed, when they agreed and signed up, and from where (when the install keeps it), with the record as
 * a JSON file to keep.
 */
export function ConsentRecordDialog({ pageId, lead, onClose }: ConsentRecordDialogProps) {
  const record = useConsentRecord(pageId, lead?.id ?? null);
  return (
    <Modal opened={lead !== null} onClose={onClose} title="Consent record" centered>
      {record.isPending ? (
        <Center py="lg" role="status" aria-label="Loading the consent record">
          <Loader />
        </Center>
      ) : record.isError ? (
        <Text c="red" role="alert">
          Failed to load the consent record: {errorText(record.error, 'Unknown error')}
        </Text>
      ) : (
        <RecordFields record={record.data} pending={lead?.status === 'pending'} />
      )}
      {lead && (
        <Group justify="flex-end" mt="lg">
          <Button component="a" href={consentRecordUrl(pageId, lead.id)} download={consentRecordFilename(lead.id)} leftSection={<IconDownload size={16} />}>
            Download JSON
          </Button>
        </Group>
      )}
    </Modal>
  );
}
