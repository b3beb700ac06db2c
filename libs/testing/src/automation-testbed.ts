import { RunningPlink, type PlinkCreator } from './running-plink';
import { WebhookReceiver } from './webhook-receiver';

/**
 * What the tests of the Zapier, n8n and Make apps each run against: a real Plink (`npm start`), a local server
 * standing in for the tool's hook URLs, and two creators with an API token and a page, one on Pro (hooks
 * allowed) and one on Free. Starting takes up to a couple of minutes on a busy machine.
 */
export class AutomationTestbed {
  private constructor(
    readonly plink: RunningPlink,
    readonly receiver: WebhookReceiver,
    readonly pro: PlinkCreator,
    readonly free: PlinkCreator,
  ) {}

  static async start(): Promise<AutomationTestbed> {
    const plink = await RunningPlink.start();
    let receiver: WebhookReceiver | undefined;
    try {
      receiver = await WebhookReceiver.start();
      const [pro, free] = await Promise.all([plink.creator({ pro: true }), plink.creator()]);
      return new AutomationTestbed(plink, receiver, pro, free);
    } catch (err) {
      await receiver?.stop();
      await plink.stop();
      throw err;
    }
  }

  /** The creator's hook subscriptions to `targetUrl`, as `GET /api/v1/hooks` answers their token. */
  async hooks(creator: PlinkCreator, targetUrl: string): Promise<unknown[]> {
    const answer = await fetch(`${this.plink.origin}/api/v1/hooks?target_url=${encodeURIComponent(targetUrl)}`, { headers: { authorization: `Bearer ${creator.token}` } });
    if (answer.status !== 200) throw new Error(`GET /api/v1/hooks: ${answer.status} ${await answer.text()}`);
    return (await answer.json()) as unknown[];
  }

  async stop(): Promise<void> {
    await this.receiver.stop();
    await this.plink.stop();
  }
}
