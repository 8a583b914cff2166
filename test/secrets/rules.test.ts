// Every rule of config/secret-rules.json: a true positive it finds, and a near miss nothing finds.
import { createHash } from 'node:crypto';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { isUserError } from '../../lib/base/errors.js';
import { validatedSecretRulesSha256 } from '../../lib/schema/schema.js';
import {
  findSecrets,
  isSecretFile,
  isSecretName,
  isSecretValue,
  loadSecretTable,
  secretRulesFile,
} from '../../lib/secrets/index.js';
import { ALNUM, B32, B64, HEX, LETTERS, LOWER, UPPER_NUM, URLSAFE, pemBody, rnd } from './tokens.js';

const an = (n: number) => rnd(ALNUM, n);
const hx = (n: number) => rnd(HEX, n);
const us = (n: number) => rnd(URLSAFE, n);

// rule id → [a line holding a secret this rule must find (the secret part), a near miss no rule may find]
type Case = { tp: string; secret: string; fp: string };
const c = (line: (s: string) => string, secret: string, fp: string): Case => ({ tp: line(secret), secret, fp });
const say = (s: string) => `const value = "${s}";`;

const CASES: Record<string, Case> = {
  anthropic_api_key: c(say, `sk-ant-api03-${us(93)}AA`, say(`sk-ant-api03-${us(12)}`)),
  openai_api_key: c(say, `sk-proj-${us(74)}T3BlbkFJ${us(74)}`, say(`sk-proj-${'a'.repeat(3)}-settings`)),
  openrouter_api_key: c(say, `sk-or-v1-${hx(64)}`, say(`sk-or-v1-${hx(20)}`)),
  sk_api_key: c(say, `sk-${hx(32)}`, say(`sk-${an(31)}`)),
  github_token: c(say, `ghp_${an(36)}`, say(`ghp_${an(35)}`)),
  github_fine_grained_pat: c(say, `github_pat_${an(22)}_${an(59)}`, say(`github_pat_${an(20)}`)),
  gitlab_token: c(say, `glpat-${us(20)}`, say(`glpat-${us(19)}`)),
  gitlab_runner_registration_token: c(say, `GR1348941${us(20)}`, say(`GR1348941${us(10)}`)),
  huggingface_token: c(say, `hf_${rnd(LETTERS, 34)}`, say(`hf_${rnd(LETTERS, 20)}1234`)),
  sendgrid_api_key: c(say, `SG.${us(22)}.${us(43)}`, say(`SG.${us(22)}.${us(20)}`)),
  shopify_token: c(say, `shpat_${hx(32)}`, say(`shpat_${rnd(LOWER, 32)}`)),
  digitalocean_token: c(say, `dop_v1_${hx(64)}`, say(`dop_v1_${hx(40)}`)),
  azure_storage_account_key: c(
    (s) => `DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=${s};EndpointSuffix=core.windows.net`,
    `${rnd(B64, 86)}==`,
    'AccountName=acct;AccountKey=short;EndpointSuffix=core.windows.net',
  ),
  azure_ad_client_secret: c(say, `${an(3)}8Q~${us(34)}`, say(`${an(3)}8Q~${us(10)}`)),
  azure_sas_signature: c(
    (s) => `https://acct.blob.core.windows.net/c/f?sv=2022-11-02&se=2030-01-01&sig=${s}`,
    `${an(43)}%3D`,
    'https://acct.blob.core.windows.net/c/f?sv=2022-11-02&sig=abc',
  ),
  groq_api_key: c(say, `gsk_${an(52)}`, say(`gsk_${an(30)}`)),
  twilio_api_key: c(say, `SK${hx(32)}`, say(`SK${hx(31)}`)),
  aws_access_key_id: c(say, `AKIA${rnd(B32, 16)}`, say(`AKIA${rnd(B32, 12)}`)),
  aws_secret_access_key: c((s) => `aws_secret_access_key = ${s}`, rnd(B64, 40), `aws_region = ${'eu-west-1'}`),
  aws_bedrock_api_key: c(say, `ABSK${rnd(B64, 120)}`, say(`ABSK${an(20)}`)),
  google_api_key: c(say, `AIza${us(35)}`, say(`AIza${us(30)}`)),
  google_oauth_client_secret: c(say, `GOCSPX-${us(28)}`, say(`GOCSPX-${us(20)}`)),
  google_oauth_refresh_token: c(say, `1//0${us(60)}`, 'see https://example.com//0abc'),
  slack_token: c(say, `xoxb-${rnd('0123456789', 12)}-${rnd('0123456789', 12)}-${an(24)}`, say('xoxb-short')),
  slack_webhook_url: c(
    (s) => `curl -X POST ${s}`,
    `https://hooks.slack.com/services/T${rnd(UPPER_NUM, 10)}/B${rnd(UPPER_NUM, 10)}/${an(24)}`,
    'see https://hooks.slack.com/ for details',
  ),
  stripe_secret_key: c(say, `sk_live_${an(24)}`, say(`pk_live_${an(24)}`)),
  stripe_webhook_secret: c(say, `whsec_${an(32)}`, say(`whsec_${an(10)}`)),
  npm_token: c(say, `npm_${an(36)}`, say(`npm_${an(20)}`)),
  pypi_token: c(say, `pypi-AgEIcHlwaS5vcmc${us(70)}`, say('pypi-project-name')),
  rubygems_token: c(say, `rubygems_${hx(48)}`, say(`rubygems_${hx(20)}`)),
  nuget_api_key: c(say, `oy2${rnd(LOWER + '0123456789', 43)}`, say(`oy2${rnd(LOWER, 10)}`)),
  clojars_token: c(say, `CLOJARS_${rnd(LOWER + '0123456789', 60)}`, say(`CLOJARS_${rnd(LOWER, 20)}`)),
  docker_hub_pat: c(say, `dckr_pat_${us(27)}`, say(`dckr_pat_${us(10)}`)),
  jwt: c(say, `eyJ${us(30)}.eyJ${us(60)}.${us(43)}`, say(`eyJ${us(30)}.notjwt`)),
  bearer_token: c(
    (s) => `curl -H "Authorization: Bearer ${s}" https://api.example.com`,
    an(40),
    'the Bearer of this letter is welcome',
  ),
  basic_auth_header: c(
    (s) => `Authorization: Basic ${s}`,
    rnd(B64, 24) + '==',
    'authorization: basic auth is deprecated',
  ),
  url_credentials: c(
    (s) => `DATABASE_URL=postgres://app:${s}@db.internal:5432/app`,
    an(16),
    'DATABASE_URL=postgres://${DB_USER}:${DB_PASSWORD}@db.internal:5432/app',
  ),
  mailgun_api_key: c(say, `key-${hx(32)}`, say(`key-${hx(16)}`)),
  mailchimp_api_key: c(say, `${hx(32)}-us14`, say(`${hx(16)}-us14`)),
  discord_bot_token: c(say, `M${an(23)}.${us(6)}.${us(27)}`, say(`M${an(10)}.${us(6)}.${us(10)}`)),
  discord_webhook_url: c(
    say,
    `https://discord.com/api/webhooks/${rnd('0123456789', 18)}/${us(68)}`,
    say('https://discord.com/api/webhooks/'),
  ),
  teams_webhook_url: c(
    say,
    `https://acme.webhook.office.com/webhookb2/${hx(8)}-${hx(4)}-${hx(4)}-${hx(4)}-${hx(12)}@${hx(8)}-${hx(4)}-${hx(4)}-${hx(4)}-${hx(12)}/IncomingWebhook/${hx(32)}`,
    say('https://acme.webhook.office.com/webhookb2/x'),
  ),
  telegram_bot_token: c(say, `${rnd('123456789', 10)}:AA${us(33)}`, say(`${rnd('123456789', 10)}:AA${us(10)}`)),
  atlassian_api_token: c(say, `ATATT3${us(186)}`, say(`ATATT3${us(20)}`)),
  linear_api_key: c(say, `lin_api_${an(40)}`, say(`lin_api_${an(20)}`)),
  notion_token: c(say, `ntn_${an(46)}`, say(`ntn_${an(20)}`)),
  databricks_token: c(say, `dapi${hx(32)}`, say(`dapi${hx(20)}`)),
  heroku_api_key: c(say, `HRKU-AA${us(58)}`, say(`HRKU-AA${us(20)}`)),
  new_relic_key: c(say, `NRAK-${rnd(UPPER_NUM, 27)}`, say(`NRAK-${rnd(UPPER_NUM, 10)}`)),
  sentry_token: c(say, `sntrys_${rnd(B64, 60)}`, say(`sntrys_${an(10)}`)),
  sentry_dsn: c(
    (s) => `SENTRY=https://${s}@o123456.ingest.sentry.io/4504`,
    hx(32),
    'SENTRY=https://o123456.ingest.sentry.io/4504',
  ),
  doppler_token: c(say, `dp.pt.${an(43)}`, say(`dp.pt.${an(20)}`)),
  vault_token: c(say, `hvs.${us(90)}`, say('hvs.short')),
  terraform_cloud_token: c(say, `${an(14)}.atlasv1.${us(67)}`, say(`${an(14)}.atlasv1.${us(20)}`)),
  pulumi_token: c(say, `pul-${hx(40)}`, say(`pul-${hx(20)}`)),
  postman_api_key: c(say, `PMAK-${hx(24)}-${hx(34)}`, say(`PMAK-${hx(24)}-${hx(10)}`)),
  square_token: c(say, `sq0atp-${us(22)}`, say(`sq0atp-${us(10)}`)),
  facebook_access_token: c(say, `EAAB${an(120)}`, say(`EAAB${an(40)}`)),
  replicate_token: c(say, `r8_${an(37)}`, say(`r8_${an(20)}`)),
  perplexity_api_key: c(say, `pplx-${an(48)}`, say(`pplx-${an(20)}`)),
  xai_api_key: c(say, `xai-${an(80)}`, say(`xai-${an(20)}`)),
  grafana_token: c(say, `glsa_${an(32)}_${hx(8)}`, say(`glsa_${an(20)}_${hx(8)}`)),
  planetscale_token: c(say, `pscale_tkn_${us(43)}`, say(`pscale_tkn_${us(10)}`)),
  supabase_key: c(say, `sbp_${hx(40)}`, say(`sbp_${hx(20)}`)),
  flyio_token: c(say, `fo1_${us(43)}`, say(`fo1_${us(20)}`)),
  age_secret_key: c(
    say,
    `AGE-SECRET-KEY-1${rnd('QPZRY9X8GF2TVDW0S3JN54KHCE6MUA7L', 58)}`,
    say('AGE-SECRET-KEY-1QPZRY'),
  ),
  circleci_token: c(say, `CCIPAT_${an(22)}_${hx(40)}`, say(`CCIPAT_${an(22)}_${hx(10)}`)),
  shippo_token: c(say, `shippo_live_${hx(40)}`, say(`shippo_live_${hx(20)}`)),
  mapbox_secret_token: c(say, `sk.eyJ${us(60)}.${us(22)}`, say(`pk.eyJ${us(60)}.${us(22)}`)),
  cloudflare_origin_ca_key: c(say, `v1.0-${hx(24)}-${hx(146)}`, say(`v1.0-${hx(24)}-${hx(20)}`)),
  openshift_token: c(say, `sha256~${us(43)}`, say(`sha256~${us(20)}`)),
  onepassword_token: c(
    say,
    `A3-${rnd(UPPER_NUM, 6)}-${rnd(UPPER_NUM, 11)}-${rnd(UPPER_NUM, 5)}-${rnd(UPPER_NUM, 5)}-${rnd(UPPER_NUM, 5)}`,
    say(`A3-${rnd(UPPER_NUM, 6)}-${rnd(UPPER_NUM, 5)}`),
  ),
  alibaba_access_key_id: c(say, `LTAI${an(20)}`, say(`LTAI${an(10)}`)),
  artifactory_api_key: c(say, `AKCp${an(69)}`, say(`AKCp${an(20)}`)),
  dynatrace_token: c(say, `dt0c01.${rnd(UPPER_NUM, 24)}.${an(64)}`, say(`dt0c01.${rnd(UPPER_NUM, 24)}.${an(20)}`)),
  easypost_api_key: c(say, `EZAK${an(54)}`, say(`EZAK${an(20)}`)),
  prefect_token: c(say, `pnu_${an(36)}`, say(`pnu_${an(20)}`)),
  sourcegraph_token: c(say, `sgp_${hx(16)}_${hx(40)}`, say(`sgp_${hx(16)}`)),
  harness_token: c(say, `pat.${us(22)}.${an(24)}.${an(20)}`, say(`pat.${us(22)}.${an(10)}`)),
  airtable_pat: c(say, `pat${an(14)}.${hx(64)}`, say(`pat${an(14)}.${hx(20)}`)),
  duffel_token: c(say, `duffel_live_${us(43)}`, say(`duffel_live_${us(20)}`)),
  maxmind_license_key: c(say, `${an(6)}_${an(29)}_mmk`, say(`${an(6)}_${an(10)}_mmk`)),
  firecrawl_api_key: c(say, `fc-${hx(32)}`, say(`fc-${hx(16)}`)),
  heygen_api_key: c(say, `sk_V2_${an(44)}`, say(`sk_V2_${an(20)}`)),
  langsmith_api_key: c(say, `lsv2_pt_${hx(32)}_${hx(10)}`, say(`lsv2_pt_${hx(32)}`)),
  tavily_api_key: c(say, `tvly-dev-${an(32)}`, say(`tvly-${an(20)}`)),
  netlify_token: c(say, `nfp_${an(36)}`, say(`nfp_${an(20)}`)),
  render_api_key: c(say, `rnd_${an(32)}`, say(`rnd_${an(20)}`)),
  neon_api_key: c(say, `napi_${rnd(LOWER + '0123456789', 64)}`, say(`napi_${rnd(LOWER, 20)}`)),
  figma_token: c(say, `figd_${us(43)}`, say(`figd_${us(20)}`)),
  braintree_access_token: c(
    say,
    `access_token$production$${rnd(LOWER + '0123456789', 16)}$${hx(32)}`,
    say(`access_token$production$${hx(16)}`),
  ),
};

const table = loadSecretTable();
const found = (text: string) => findSecrets(text).map((m) => ({ rule: m.rule, text: text.slice(m.start, m.end) }));

describe('token rules', () => {
  it('every rule in the table has a case here, and every case names a rule', () => {
    expect(Object.keys(CASES).sort()).toEqual(table.tokens.map((r) => r.id).sort());
  });

  it.each(table.tokens.map((r) => [r.id] as const))('%s: finds its secret, and no rule finds the near miss', (id) => {
    const k = CASES[id]!;
    expect(found(k.tp)).toContainEqual({ rule: id, text: k.secret });
    expect(found(k.fp)).toEqual([]);
  });
});

describe('generic rules', () => {
  const pw = an(20);
  it.each([
    ['env, unquoted', `API_TOKEN=${pw}`],
    ['env, vendor-prefixed name', `SOMEVENDOR_KEY=${pw}`],
    ['shell export, quoted', `export DB_PASSWORD="${pw}"`],
    ['YAML, unquoted', `  password: ${pw}`],
    ['YAML, quoted', `  client_secret: '${pw}'`],
    ['JSON', `{"apiKey": "${pw}"}`],
    ['INI', `secret_key = ${pw}`],
    ['TypeScript', `const authToken = '${pw}';`],
    ['Go', `signingKey := "${pw}"`],
    ['PHP array', `'password' => '${pw}',`],
    ['a short password under a password name', `password: "S3cr3t!x"`],
  ])('secret_assignment: %s', (_name, line) => {
    const hits = found(line);
    expect(hits).toHaveLength(1);
    expect(hits[0]!.rule).toBe('secret_assignment');
    expect(line.replace(hits[0]!.text, '')).not.toMatch(/S3cr3t|[A-Za-z0-9]{20}/);
  });

  it.each([
    ['a reference to the environment', 'const apiKey = process.env.API_KEY;'],
    ['a shell variable', 'API_TOKEN=${API_TOKEN:-}'],
    ['a template', 'password: "{{ vault_password }}"'],
    ['a placeholder', 'API_KEY=your-api-key-here'],
    ['a type annotation', 'password: string;'],
    ['a number', 'max_tokens: 16000'],
    ['a path', 'private_key_path = "/etc/ssl/private/server.pem"'],
    ['a URL without credentials', 'token_url: https://auth.example.com/oauth/token'],
    ['a low-entropy value', 'api_key = "aaaaaaaaaaaaaaaa"'],
    ['a call', 'password = hash(password)'],
    ['a name that only contains "key" inside a word', `monkey = "${pw}"`],
  ])('secret_assignment near miss: %s', (_name, line) => {
    expect(found(line)).toEqual([]);
  });

  const body = pemBody(6);
  const block = ['-----BEGIN RSA PRIVATE KEY-----', ...body, '-----END RSA PRIVATE KEY-----'];
  const leaks = (text: string, hits: { text: string }[]) => {
    const left = hits.reduce((t, h) => t.replace(h.text, ''), text);
    return body.filter((l) => left.includes(l.slice(8, 40)));
  };

  it.each([
    ['a whole block', block.join('\n')],
    ['a whole block as diff lines', block.map((l) => `+${l}`).join('\n')],
    [
      'a BEGIN whose END is cut off',
      block
        .slice(0, 4)
        .map((l) => `+${l}`)
        .join('\n') + '\n+const next = 1;',
    ],
    [
      'an END whose BEGIN is outside the hunk',
      block
        .slice(3)
        .map((l) => ` ${l}`)
        .join('\n'),
    ],
    [
      'body lines with neither',
      block
        .slice(2, 6)
        .map((l) => `-${l}`)
        .join('\n'),
    ],
    ['a JSON string with escaped newlines', `{"private_key": "${block.join('\\n')}\\n"}`],
    ['a JSON string cut after BEGIN', `"private_key": "${block.slice(0, 3).join('\\n')}`],
    ['an OpenSSH key', block.join('\n').replaceAll('RSA', 'OPENSSH')],
    [
      'a tail whose hunk header shows a key line as function context',
      [`@@ -16,7 +16,7 @@ ${body[0]}`, ...block.slice(2).map((l) => ` ${l}`)].join('\n'),
    ],
    [
      'body lines under a hunk header showing a key line',
      [`@@ -3,3 +3,3 @@ ${body[0]}`, ...body.slice(1, 5).map((l) => ` ${l}`)].join('\n'),
    ],
  ])('private_key: %s', (_name, text) => {
    const hits = found(text);
    expect(hits.length).toBeGreaterThan(0);
    expect(hits.every((h) => h.rule === 'private_key')).toBe(true);
    expect(leaks(text, hits)).toEqual([]);
    expect(hits.map((h) => h.text).join('')).not.toContain('const next');
  });

  it.each([
    ['a public key', ['-----BEGIN PUBLIC KEY-----', ...body.slice(0, 2), '-----END PUBLIC KEY-----'].join('\n')],
    ['two base64 lines', body.slice(0, 2).join('\n')],
    ['low-entropy base64-looking lines', ['A'.repeat(64), 'B'.repeat(64), 'C'.repeat(64)].join('\n')],
    ['prose about keys', 'Rotate the PRIVATE KEY yearly; see docs/keys.md'],
  ])('private_key near miss: %s', (_name, text) => {
    expect(found(text)).toEqual([]);
  });
});

describe('names and values', () => {
  it.each([
    'ANTHROPIC_API_KEY',
    'GITHUB_TOKEN',
    'db_password',
    'DB_PASS',
    'DB_PWD',
    'SOMEVENDOR_KEY',
    'CLIENT_SECRET',
    'AWS_CREDENTIALS',
    'SESSION_COOKIE',
  ])('%s is a secret-looking name', (name) => {
    expect(isSecretName(name)).toBe(true);
  });
  it.each(['PATH', 'HOME', 'PWD', 'OLDPWD', 'BYPASS_PROXY', 'KEYMAP', 'MONKEY_PATCH', 'LANG', 'PASSENGER_ROOT'])(
    '%s is not',
    (name) => {
      expect(isSecretName(name)).toBe(false);
    },
  );
  it('a value in a token format is secret whatever its name; ordinary values are not', () => {
    expect(isSecretValue(`ghp_${an(36)}`)).toBe(true);
    expect(isSecretValue('/usr/local/bin:/usr/bin:/bin')).toBe(false);
    expect(isSecretValue('en_US.UTF-8')).toBe(false);
  });
  it.each([
    '.env',
    'app/.env.local',
    'my config/.env\t',
    '.envrc',
    'certs/server.pem',
    'keys/id_ed25519',
    'home/.aws/credentials',
    'infra/prod.tfvars',
    'deploy/service-account.json',
  ])('%s is a secret file', (path) => {
    expect(isSecretFile(path)).toBe(true);
  });
  // Source code named like a secret file is still shown (its literals redacted): an agent must not be able to
  // hide its work from the judge behind a name.
  it.each([
    'src/env.ts',
    'docs/environment.md',
    'src/identity.ts',
    'src/credentials_form.tsx.snap',
    'public/key-visual.png',
    'src/.env.ts',
    'src/auth/credentials.ts',
    'lib/id_generator.py',
    'app/secrets.go',
  ])('%s is not', (path) => {
    expect(isSecretFile(path)).toBe(false);
  });
});

// Text from the agent's tree (diffs, test output) must not be able to stall the matcher: every shape that was
// quadratic before the quantifiers were bounded, a megabyte each (minutes then). The test's timeout bounds the
// time; what is found is checked exactly: one key marker per unit that holds one, nothing in the others.
describe('hostile input', () => {
  it.each([
    ['a-a-a-', 'a-'],
    ['a.a.a.', 'a.'],
    ['eyJ-like runs', 'eyJhbGciOi.'],
    ['sk-a sk-a', 'sk-a'],
    ['END markers after base64', 'QUJDREVGR0hJSktMTU5PUFFSU1RVVldYWVo=\n-----END RSA PRIVATE KEY-----\n'],
    ['BEGIN markers', '-----BEGIN RSA PRIVATE KEY-----\n+\n'],
    ['separators after a BEGIN', `-----BEGIN RSA PRIVATE KEY-----${'\n+'.repeat(10)}`],
    ['long base64', 'QUJD'],
    ['scheme-like runs', 'a.b+c-'],
  ])('a megabyte of %s is matched within the timeout, each key marker once', (_name, unit) => {
    const units = Math.ceil(1_000_000 / unit.length);
    const found = findSecrets(unit.repeat(units));
    const marker = /-----(BEGIN|END) RSA PRIVATE KEY-----/.test(unit);
    expect(found.length).toBe(marker ? units : 0);
    expect(new Set(found.map((f) => f.rule))).toEqual(new Set(marker ? ['private_key'] : []));
  });
});

describe('the table file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'judgeloop-rules-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));
  const write = (name: string, data: unknown) => {
    const file = join(dir, name);
    writeFileSync(file, typeof data === 'string' ? data : JSON.stringify(data));
    return file;
  };
  const good = JSON.parse(readFileSync(secretRulesFile(), 'utf8')) as { token_rules: { id: string; regex: string }[] };

  it('is valid against its schema and every regex compiles', () => {
    expect(loadSecretTable().tokens.length).toBe(good.token_rules.length);
  });
  it('the shipped bytes are those the build validated (a collect loads no validator for them)', () => {
    const sha = createHash('sha256').update(readFileSync(secretRulesFile())).digest('hex');
    expect(validatedSecretRulesSha256()).toBe(sha);
    // The same rules with other bytes (same JSON) are validated, and give the same table.
    const copy = write('spaced.json', `${JSON.stringify(good, null, 1)}\n`);
    expect(loadSecretTable(copy).tokens.map((t) => t.id)).toEqual(good.token_rules.map((r) => r.id));
  });
  it('a rule that does not compile: a configuration error naming the rule', () => {
    const bad = { ...good, token_rules: [{ ...good.token_rules[0]!, regex: '(unclosed' }] };
    expect(() => loadSecretTable(write('bad-regex.json', bad))).toThrow(
      /config\/secret-rules\.json: token_rules anthropic_api_key: Invalid regular expression/,
    );
    try {
      loadSecretTable(write('bad-regex2.json', bad));
    } catch (e) {
      expect(isUserError(e)).toBe(true);
    }
  });
  it('a table that fails its schema, or is not JSON: a configuration error naming the file and the path', () => {
    expect(() =>
      loadSecretTable(write('no-keywords.json', { ...good, token_rules: [{ ...good.token_rules[0]!, keywords: [] }] })),
    ).toThrow(/no-keywords\.json: \/token_rules\/0\/keywords/);
    expect(() => loadSecretTable(write('broken.json', '{'))).toThrow(/broken\.json: not valid JSON/);
  });
});
