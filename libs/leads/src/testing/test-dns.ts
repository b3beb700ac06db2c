import DNS from 'dns2';

const { Packet } = DNS;

/** How the test DNS server answers a name: records, "no such domain", a server failure, or never. */
export type DnsAnswer = { mx?: string; a?: string; aaaa?: string } | 'nxdomain' | 'servfail' | 'silent';

/**
 * A DNS server on loopback for tests (the npm package dns2; the machine's own DNS answers "no such domain" for
 * every name). Names it is not told of answer NXDOMAIN; a known name without a record of the asked type
 * answers with no records (NODATA), as real servers do.
 */
export class TestDns {
  private constructor(
    private readonly server: DNS.DnsServer,
    readonly address: string,
  ) {}

  static async start(zone: Record<string, DnsAnswer>): Promise<TestDns> {
    const server = DNS.createServer({
      udp: true,
      handle: (request, send) => {
        const response = Packet.createResponseFromRequest(request);
        const [question] = request.questions;
        const answer = zone[question.name.toLowerCase()];
        if (answer === 'silent') return;
        if (answer === undefined || answer === 'nxdomain') response.header.rcode = Packet.RCODE.NXDOMAIN;
        else if (answer === 'servfail') response.header.rcode = Packet.RCODE.SERVFAIL;
        else {
          const record = (fields: Record<string, unknown>) => Packet.createResourceFromQuestion(question, { class: Packet.CLASS.IN, ttl: 60, ...fields });
          if (question.type === Packet.TYPE.MX && answer.mx) response.answers.push(record({ type: Packet.TYPE.MX, exchange: answer.mx, priority: 10 }));
          if (question.type === Packet.TYPE.A && answer.a) response.answers.push(record({ type: Packet.TYPE.A, address: answer.a }));
          if (question.type === Packet.TYPE.AAAA && answer.aaaa) response.answers.push(record({ type: Packet.TYPE.AAAA, address: answer.aaaa }));
        }
        send(response);
      },
    });
    const addresses = await server.listen({ udp: { port: 0, address: '127.0.0.1' } });
    return new TestDns(server, `127.0.0.1:${addresses.udp!.port}`);
  }

  async stop(): Promise<void> {
    await this.server.close();
  }
}
