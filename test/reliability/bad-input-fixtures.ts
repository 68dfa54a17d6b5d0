// Files the bad invocations point at: keys of the wrong kind or size, a certificate, broken PEM, CSVs with
// every kind of mistake, a file too big to be a name, paths that cannot be read. Made once per run.
import { generateKeyPairSync } from 'node:crypto';
import { chmodSync, mkdirSync, mkdtempSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export interface Fixtures {
  dir: string;
  file(name: string): string;
}

const pem = (key: { export(options: object): string | Buffer }, options: object) => key.export({ format: 'pem', ...options }).toString();

export function makeFixtures(caCertPem: string): Fixtures {
  const dir = mkdtempSync(join(tmpdir(), 'trident-rel-bad-'));
  const file = (name: string) => join(dir, name);
  const write = (name: string, content: string) => writeFileSync(file(name), content, { mode: 0o600 });

  const dsa = generateKeyPairSync('dsa', { modulusLength: 1024, divisorLength: 160 });
  const rsa1024 = generateKeyPairSync('rsa', { modulusLength: 1024 });
  const ec = generateKeyPairSync('ec', { namedCurve: 'P-256' });
  const rsa = generateKeyPairSync('rsa', { modulusLength: 2048 });
  write('cert.pem', caCertPem);
  write('dsa-public.pem', pem(dsa.publicKey, { type: 'spki' }));
  write('dsa-private.pem', pem(dsa.privateKey, { type: 'pkcs8' }));
  write('rsa1024-public.pem', pem(rsa1024.publicKey, { type: 'spki' }));
  write('rsa1024-private.pem', pem(rsa1024.privateKey, { type: 'pkcs1' }));
  write('ec-private.pem', pem(ec.privateKey, { type: 'pkcs8' }));
  write('encrypted.pem', pem(rsa.privateKey, { type: 'pkcs8', cipher: 'aes-256-cbc', passphrase: 'secret' }));
  write('public.pem', pem(rsa.publicKey, { type: 'spki' }));
  write('malformed-public.pem', '-----BEGIN PUBLIC KEY-----\nthis is not base64!\n-----END PUBLIC KEY-----\n');
  write('malformed-private.pem', '-----BEGIN PRIVATE KEY-----\nAAAA\n-----END PRIVATE KEY-----\n');
  write('empty', '');
  write('existing.pem', 'already here');
  write('not-a-dir', '');
  write('ssh.pub', 'ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQ user@host\n');
  mkdirSync(file('directory'));
  symlinkSync('loop', file('loop'));
  write('csv-header.csv', 'id,title\n1,a\n');
  write('csv-id.csv', 'id,name\nx,a\n');
  write('csv-duplicate.csv', 'id,name\n3,a\n3,b\n');
  write('csv-unclosed.csv', 'id,name\n3,"abc\n4,x\n');
  write('csv-header-only.csv', 'id,name\n');
  write('csv-columns.csv', 'id,name\n3,a,extra\n');
  write('csv-control.csv', 'id,name\n3,a\u001b[2Jb\n');
  write('csv-huge-name.csv', `id,name\n3,${'x'.repeat(1024 * 1024)}\n`);
  write('token-words', 'two words\n');
  write('token-other-agent.json', JSON.stringify({ token: 'abcdef0123456789', userAgent: 'curl/8.5.0' }));
  chmodSync(dir, 0o700);
  return { dir, file };
}
