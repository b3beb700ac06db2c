import { Injectable } from '@nestjs/common';
import { EntityManager } from '@mikro-orm/postgresql';

/**
 * The consent texts leads were shown, once per distinct text (`leads.consent_texts`, keyed by the SHA-256 a
 * lead keeps as `consent_version`). A text is written before the first lead that names it; each process
 * remembers the versions it has written, so a sign-up costs no statement here after the first of its text.
 */
@Injectable()
export class ConsentTexts {
  private readonly written = new Map<string, Promise<void>>();

  constructor(private readonly em: EntityManager) {}

  /** Resolves once the text of `version` is stored (by this call or an earlier one, of any process). */
  ensure(version: string, text: string): Promise<void> {
    let done = this.written.get(version);
    if (!done) {
      done = this.em
        .fork()
        .execute('insert into leads.consent_texts (version, text) values (?, ?) on conflict (version) do nothing', [version, text])
        .then(() => undefined);
      // A failed write is tried again by the next sign-up, never remembered as done.
      done.catch(() => this.written.delete(version));
      this.written.set(version, done);
    }
    return done;
  }
}
