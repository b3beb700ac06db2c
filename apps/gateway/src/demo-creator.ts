import { Injectable, Module, type INestApplicationContext, type OnApplicationBootstrap } from '@nestjs/common';
import type { AppConfig } from '@plink/config';
import { IdentityDemo, IdentityDemoModule } from '@plink/identity';
import { LeadsDemo, LeadsDemoModule } from '@plink/leads';
import { getLogger } from '@plink/observability';
import { PagesDemo, PagesDemoModule } from '@plink/pages';

/** The demo creator's sign-in, for `npm start` to print. */
export interface DemoSignIn {
  email: string;
  password: string;
  /** Made by this start (else by an earlier one, and it still signs in). */
  created: boolean;
}

/**
 * The demo creator of a development database (PLINK_DEMO_SEED): on a database with no account yet, a verified
 * creator with a sample page, its views and a few leads of the last days, so a first run shows the product at
 * work. Each service makes its own part through its own use cases and tables, composed here like the ports in
 * service-ports.ts: identity the account (only on an empty database, once however many processes start
 * together), pages the page (publishing 'page.changed' like any save), leads the leads.
 *
 * It runs as the gateway starts, before it listens. A seed that fails is logged and the gateway starts anyway:
 * the demo is a convenience, never a reason not to run.
 */
@Injectable()
export class DemoCreatorSeed implements OnApplicationBootstrap {
  /** The demo creator's sign-in when it works now (made by this start or an earlier one), else null. */
  signIn: DemoSignIn | null = null;

  constructor(
    private readonly identity: IdentityDemo,
    private readonly pages: PagesDemo,
    private readonly leads: LeadsDemo,
  ) {}

  async onApplicationBootstrap(): Promise<void> {
    try {
      this.signIn = await this.seed();
    } catch (err) {
      getLogger().error({ err }, 'could not make the demo creator');
    }
  }

  private async seed(): Promise<DemoSignIn | null> {
    const creator = await this.identity.createOnEmptyDatabase();
    if (creator) {
      const page = await this.pages.createSamplePage(creator);
      const leads = await this.leads.addSampleLeads(page.id);
      // Logs carry no e-mail address nor password: npm start prints the sign-in, and the docs name it.
      getLogger().info({ userId: creator.id, pageId: page.id, leads }, 'demo creator made on the empty database (development only; its sign-in is in docs/operations.md)');
      return { email: creator.email, password: creator.password, created: true };
    }
    const existing = await this.identity.stillSigningIn();
    return existing && { email: existing.email, password: existing.password, created: false };
  }
}

/**
 * Whether the gateway makes the demo creator: PLINK_DEMO_SEED (by default in development). The config already
 * refuses it in production; production is checked here again because this is where it would happen.
 */
export function demoSeedOn(config: AppConfig): boolean {
  return config.demoSeed && config.env !== 'production';
}

/** The demo seed, imported by the gateway only when {@link demoSeedOn}. */
@Module({ imports: [IdentityDemoModule, PagesDemoModule, LeadsDemoModule], providers: [DemoCreatorSeed], exports: [DemoCreatorSeed] })
export class DemoCreatorModule {}

/**
 * Tells `npm start` (tools/start.mjs, the parent at the other end of the IPC channel it opens) the demo
 * creator's sign-in, which it prints beside the URL. Only the launcher hears it: the gateway's log never
 * carries an address or a password, and a gateway started otherwise has no channel and says nothing.
 */
export function tellLauncherDemoSignIn(app: INestApplicationContext): void {
  const signIn = app.get(DemoCreatorSeed).signIn;
  if (signIn && process.send && process.connected) process.send({ type: 'demo-creator', ...signIn }, undefined, {}, () => undefined);
}
