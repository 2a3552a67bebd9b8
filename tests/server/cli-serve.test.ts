// `outpost` and `outpost serve` as a user runs them (the real CLI in a child process): the help
// pages list PocketBase 0.22's flags, the flags take effect (--dir default and custom, --origins,
// --dev, --migrationsDir with --automigrate, boolean `=false` forms), and what Outpost does not know
// (a flag, a command, a bad value, a domain no certificate can name) ends with a clear message and a
// non-zero exit code, no server started. TLS itself: tls-acme.test.ts.
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { FIXTURE_ADMIN_TOKEN, FIXTURE_DIR, http, tempDir } from '../helpers/server';
import { runCli, startCliServer } from '../helpers/cli';

const ROOT_FLAGS = ['--dir', '--encryptionEnv', '--dev', '--publicDir', '--indexFallback', '--migrationsDir', '--automigrate', '--queryTimeout'];

let cwd = '';

beforeAll(() => {
  cwd = tempDir('outpost-cli-serve-');
});

afterAll(() => {
  fs.rmSync(cwd, { recursive: true, force: true });
});

describe('help', () => {
  it('`outpost --help` lists the commands and the root flags with their defaults', async () => {
    const res = await runCli(['--help'], cwd);
    expect(res.code).toBe(0);
    for (const command of ['admin', 'migrate', 'serve']) expect(res.stdout).toMatch(new RegExp(`^  ${command} +\\S`, 'm'));
    for (const flag of ROOT_FLAGS) expect(res.stdout).toContain(flag);
    expect(res.stdout).toContain('(default "./pb_data")');
    expect(res.stdout).toContain('(default "./pb_public")');
    expect(res.stdout).toMatch(/--indexFallback .*\(default true\)/);
    expect(res.stdout).toMatch(/--automigrate .*\(default true\)/);
    expect(res.stdout).toMatch(/--queryTimeout int .*\(default 30\)/);
    expect(res.stdout).not.toContain('Not supported yet');
    expect(res.stdout).toMatch(/--hooksDir string .*\(default "<dir>\/\.\.\/pb_hooks"\)/);
    expect(res.stdout).toMatch(/--hooksPool int .*\(default 25\)/);
    // no command at all: the same page, as 0.22 prints its usage
    expect((await runCli([], cwd)).stdout).toBe(res.stdout);
    expect((await runCli(['--version'], cwd)).stdout).toMatch(/^outpost version \d+\.\d+\.\d+/);
  });

  it('`outpost serve --help` lists its own flags and the root ones', async () => {
    const res = await runCli(['serve', '--help'], cwd);
    expect(res.code).toBe(0);
    // 0.22's texts: the defaults depend on domain arguments
    expect(res.stdout).toMatch(/--http string +TCP address to listen for the HTTP server\n.*otherwise - default to 127\.0\.0\.1:8090\)/);
    expect(res.stdout).toMatch(/--https string +TCP address to listen for the HTTPS server\n.*default to 0\.0\.0\.0:443/);
    expect(res.stdout).toMatch(/--acmeDirectory string .*\(default "https:\/\/acme-v02\.api\.letsencrypt\.org\/directory"\)/);
    expect(res.stdout).toContain('outpost serve [domain(s)] [flags]');
    expect(res.stdout).toMatch(/--origins string .*\(default \[\*\]\)/);
    for (const flag of ROOT_FLAGS) expect(res.stdout).toContain(flag);
    expect((await runCli(['serve', '-h'], cwd)).stdout).toBe(res.stdout);
  });
});

describe('refused command lines start nothing', () => {
  const cases: Array<[string[], RegExp]> = [
    [['serve', '--https=nowhere'], /invalid --https address "nowhere"/],
    [['--hooksPool', 'many', 'serve'], /invalid value "many" for --hooksPool/],
    [['serve', 'localhost'], /invalid domain "localhost"/],
    [['serve', 'example.com', '--acmeDirectory=ftp://ca'], /invalid --acmeDirectory "ftp:\/\/ca"/],
    [['serve', '--bogus'], /unknown flag: --bogus/],
    [['serve', '--dir'], /flag needs an argument: --dir/],
    [['serve', '--automigrate=maybe'], /invalid value "maybe" for --automigrate/],
    [['serve', '--queryTimeout=soon'], /invalid value "soon" for --queryTimeout/],
    [['serve', '--http=nowhere'], /invalid --http address "nowhere"/],
    [['serve', '--http=127.0.0.1:0', '--unknown-flag=1'], /unknown flag: --unknown-flag/],
    [['deploy'], /unknown command "deploy" for "outpost"/],
  ];
  for (const [args, message] of cases) {
    it(`outpost ${args.join(' ')}`, async () => {
      const res = await runCli([...args, `--dir=${path.join(cwd, 'refused')}`], cwd);
      expect(res.code).toBe(2);
      expect(res.stderr).toMatch(message);
      expect(res.stdout).not.toContain('REST API');
      expect(fs.existsSync(path.join(cwd, 'refused'))).toBe(false);
    });
  }
});

describe('flags take effect', () => {
  it('--dir defaults to ./pb_data of the working directory, --origins is the CORS list; pb_hooks next to it run', async () => {
    const project = path.join(cwd, 'default-dir');
    fs.mkdirSync(path.join(project, 'pb_hooks'), { recursive: true });
    fs.writeFileSync(path.join(project, 'pb_hooks', 'main.pb.js'), 'routerAdd("GET", "/hello", (c) => c.string(200, "hi"))');
    const server = await startCliServer(['--origins=https://a.example', '--origins', 'https://b.example,https://c.example'], project);
    try {
      expect(fs.existsSync(path.join(project, 'pb_data', 'data.db'))).toBe(true);
      expect((await http(server.url, 'GET', '/hello')).body).toBe('hi');
      for (const origin of ['https://a.example', 'https://b.example', 'https://c.example']) {
        const res = await http(server.url, 'GET', '/api/health', { headers: { Origin: origin } });
        expect(res.headers.get('access-control-allow-origin'), origin).toBe(origin);
      }
      const other = await http(server.url, 'GET', '/api/health', { headers: { Origin: 'https://evil.example' } });
      expect(other.headers.get('access-control-allow-origin')).toBeNull();
    } finally {
      await server.stop();
    }
  });

  it('--dev prints the SQL statements and a line per request', async () => {
    const dataDir = path.join(cwd, 'dev', 'pb_data');
    const server = await startCliServer([`--dir=${dataDir}`, '--dev'], cwd);
    try {
      await http(server.url, 'GET', '/api/collections/users/records');
      await new Promise((r) => setTimeout(r, 200));
      expect(server.output()).toMatch(/\[sql\] SELECT /);
      expect(server.output()).toMatch(/INFO GET \/api\/collections\/users\/records 200 [\d.]+ms|WARN GET \/api\/collections\/users\/records 4\d\d/);
    } finally {
      await server.stop();
    }
    const quiet = await startCliServer([`--dir=${dataDir}`, '--dev=false'], cwd);
    try {
      await http(quiet.url, 'GET', '/api/health');
      expect(quiet.output()).not.toContain('[sql]');
    } finally {
      await quiet.stop();
    }
  });

  it('--migrationsDir names where automigrate writes; --automigrate=false writes nothing', async () => {
    const project = path.join(cwd, 'migrations');
    fs.cpSync(FIXTURE_DIR, path.join(project, 'pb_data'), { recursive: true });
    const custom = path.join(project, 'custom_migrations');
    const create = (url: string, name: string) => http(url, 'POST', '/api/collections', { token: FIXTURE_ADMIN_TOKEN, body: { name, type: 'base', schema: [{ name: 'title', type: 'text' }] } });

    const on = await startCliServer(['--dir=pb_data', `--migrationsDir=${custom}`], project);
    try {
      expect((await create(on.url, 'cli_flag_on')).status).toBe(200);
    } finally {
      await on.stop();
    }
    const written = fs.readdirSync(custom);
    expect(written.some((f) => /^\d+_created_cli_flag_on\.js$/.test(f))).toBe(true);
    expect(fs.existsSync(path.join(project, 'pb_migrations'))).toBe(false);

    const off = await startCliServer(['--dir=pb_data', `--migrationsDir=${custom}`, '--automigrate=false'], project);
    try {
      expect((await create(off.url, 'cli_flag_off')).status).toBe(200);
    } finally {
      await off.stop();
    }
    expect(fs.readdirSync(custom)).toEqual(written);
  });
});
