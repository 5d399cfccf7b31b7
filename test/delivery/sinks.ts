// Misbehaving local sinks for the retry tests, all on 127.0.0.1 with kernel-chosen ports: a
// scripted SMTP server (raw sockets, so it can go silent or drop the connection exactly where a
// test says) and a scripted HTTP endpoint. Each connection or request takes the next behaviour
// of its script (the last one repeats); each counts what it received and what it accepted. For
// SMTP, a behaviour of the connection (silent, drop, 421) is taken when a connection opens, one of
// the message (RCPT or data answers) when a message starts (MAIL), so a kept-open connection
// still moves through the script.
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';

export type SmtpBehaviour =
  | 'accept'
  /** Never says anything (the client's greeting timeout). */
  | 'silent'
  /** Closes the connection at once, before any greeting. */
  | 'drop-at-connect'
  /** Greets with 421 (service not available) and closes. */
  | 'greet-421'
  /** Refuses the recipient. */
  | 'rcpt-451'
  | 'rcpt-550'
  /** Takes the whole message, then answers 451 (not accepted; try later). */
  | 'data-451'
  /** Takes the whole message, then drops the connection before answering. */
  | 'drop-after-data';

export interface SmtpSink {
  url: string;
  port: number;
  connections: number;
  /** Whole messages the sink received (whatever it answered then). */
  received: number;
  /** Messages the sink accepted (250 after the data): deliveries. */
  delivered: number;
  close(): Promise<void>;
}

export async function startSmtpSink(script: SmtpBehaviour[]): Promise<SmtpSink> {
  const sockets = new Set<net.Socket>();
  const sink: SmtpSink = { url: '', port: 0, connections: 0, received: 0, delivered: 0, close: async () => {} };
  let k = 0;
  const peek = () => script[Math.min(k, script.length - 1)];
  const ofConnection = (b: SmtpBehaviour) => b === 'silent' || b === 'drop-at-connect' || b === 'greet-421';
  const server = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => {});
    sink.connections++;
    let how = peek();
    if (ofConnection(how)) k++;
    if (how === 'silent') return;
    if (how === 'drop-at-connect') return void socket.destroy();
    if (how === 'greet-421') return void socket.end('421 4.3.2 Service not available, closing channel\r\n');
    const say = (line: string) => socket.write(`${line}\r\n`);
    say('220 sink.test ESMTP');
    let buffer = '';
    let inData = false;
    socket.on('data', (chunk) => {
      buffer += chunk.toString('latin1');
      for (;;) {
        if (inData) {
          const end = buffer.indexOf('\r\n.\r\n');
          if (end < 0) return;
          buffer = buffer.slice(end + 5);
          inData = false;
          sink.received++;
          if (how === 'drop-after-data') return void socket.destroy();
          if (how === 'data-451') say('451 4.3.0 Try again later');
          else {
            sink.delivered++;
            say('250 2.0.0 Ok: queued');
          }
          continue;
        }
        const nl = buffer.indexOf('\r\n');
        if (nl < 0) return;
        const line = buffer.slice(0, nl);
        buffer = buffer.slice(nl + 2);
        const cmd = line.slice(0, 4).toUpperCase();
        if (cmd === 'EHLO' || cmd === 'HELO') say('250 sink.test');
        else if (cmd === 'MAIL') {
          how = peek();
          k++;
          say('250 2.1.0 Ok');
        }
        else if (cmd === 'RCPT') say(how === 'rcpt-451' ? '451 4.7.1 Greylisted, try later' : how === 'rcpt-550' ? '550 5.1.1 Mailbox unavailable' : '250 2.1.5 Ok');
        else if (cmd === 'DATA') {
          inData = true;
          say('354 End data with <CR><LF>.<CR><LF>');
        } else if (cmd === 'RSET' || cmd === 'NOOP') say('250 2.0.0 Ok');
        else if (cmd === 'QUIT') {
          say('221 2.0.0 Bye');
          socket.end();
          return;
        } else say('502 5.5.2 Command not recognised');
      }
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  sink.port = (server.address() as AddressInfo).port;
  sink.url = `smtp://127.0.0.1:${sink.port}`;
  sink.close = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      server.close(() => resolve());
    });
  return sink;
}

export type HttpBehaviour =
  | { status: number; retryAfter?: string }
  /** Reads the whole request, then drops the connection without answering. */
  | 'drop-after-request'
  /** Reads the whole request and never answers. */
  | 'silent';

export interface HttpSink {
  url: string;
  requests: number;
  /** Requests answered 2xx: deliveries. */
  delivered: number;
  close(): Promise<void>;
}

export async function startHttpSink(script: HttpBehaviour[]): Promise<HttpSink> {
  const sink: HttpSink = { url: '', requests: 0, delivered: 0, close: async () => {} };
  const server = http.createServer((req, res) => {
    const how = script[Math.min(sink.requests, script.length - 1)];
    sink.requests++;
    req.resume();
    req.on('end', () => {
      if (how === 'silent') return;
      if (how === 'drop-after-request') return void req.socket.destroy();
      if (how.status >= 200 && how.status <= 299) sink.delivered++;
      res.writeHead(how.status, how.retryAfter ? { 'retry-after': how.retryAfter } : {}).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  sink.url = `http://127.0.0.1:${(server.address() as AddressInfo).port}/sms`;
  sink.close = () =>
    new Promise<void>((resolve) => {
      server.closeAllConnections();
      server.close(() => resolve());
    });
  return sink;
}

/** A port nothing listens on (connections to it are refused). */
export async function closedPort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, '127.0.0.1', () => r()));
  const port = (s.address() as AddressInfo).port;
  await new Promise<void>((r) => s.close(() => r()));
  return port;
}
