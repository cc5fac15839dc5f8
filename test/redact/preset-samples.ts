/*
 * One realistic sample of every secret kind of secretlint's recommended preset (shapes read from
 * each rule's pattern and its test snapshots in secretlint/secretlint), and of Baton's own kinds.
 * Every value is generated from a seed at run time, so the repository holds no literal secret.
 */

const UPPER = 'ABCDEFGHIJKLMNOPQRSTUVWXYZ';
const LOWER = 'abcdefghijklmnopqrstuvwxyz';
const DIGITS = '0123456789';
const ALNUM = UPPER + LOWER + DIGITS;
const HEX = '0123456789abcdef';

/** A deterministic string of `n` characters of `chars`. */
export function gen(chars: string, n: number, seed: number): string {
  let state = seed * 2654435761 + 1;
  let out = '';
  for (let i = 0; i < n; i += 1) {
    state = (state * 1103515245 + 12345) % 2147483648;
    out += chars[state % chars.length];
  }
  return out;
}

const base64url = (text: string) => Buffer.from(text).toString('base64url');

function pem(seed: number): string {
  const body = `MII${gen(ALNUM + '+/', 317, seed)}`;
  const lines = body.match(/.{1,64}/g) ?? [];
  return [`-----BEGIN ${'PRIVATE'} KEY-----`, ...lines, `-----END ${'PRIVATE'} KEY-----`].join('\n');
}

function onePasswordToken(seed: number): string {
  // Base64 of a JSON object whose length leaves `}` alone in the last group: `…fQ==`, as the rule wants.
  let json = JSON.stringify({
    email: `${gen(LOWER, 13, seed)}@1passwordserviceaccounts.lcl`,
    secretKey: gen(UPPER + DIGITS, 34, seed),
    srpX: gen(HEX, 64, seed),
  });
  while (json.length % 3 !== 1) json = json.replace('{', '{ ');
  return `ops_${Buffer.from(json).toString('base64')}`;
}

function grafanaCloudToken(seed: number): string {
  return `glc_${Buffer.from(JSON.stringify({ o: gen(DIGITS, 6, seed), n: `stack-${gen(DIGITS, 6, seed)}-read`, k: gen(ALNUM, 24, seed), m: { r: 'us' } })).toString('base64')}`;
}

/** How a sample appears in text. */
export type SampleShape =
  /** A token recognised by its own shape anywhere: every context must mask it under `kind`. */
  | 'token'
  /** A value recognised only by its context (its name, its place in a URL): any kind will do. */
  | 'contextual'
  /** A URL whose password (`secret`) is the secret: the URL is what appears in every context. */
  | 'url-password'
  /** A whole URL that is the secret (a Slack incoming webhook). */
  | 'url';

export interface SecretSample {
  /** The preset rule that reports it (`@secretlint/secretlint-rule-…`), or `baton` for Baton's own. */
  rule: string;
  /** What it is, for test names. */
  label: string;
  /** The marker kind Baton must use for it where its shape alone identifies it. */
  kind: string;
  shape: SampleShape;
  /** The secret itself: the part that must disappear. */
  secret: string;
  /** For `url-password`: the URL holding it. For `url`: equal to secret. */
  url?: string;
  /** The variable it naturally lives in. */
  name: string;
  /** A shell line holding it, as an agent would run it. */
  shell: string;
  /** What secretlint is shown to prove the sample is real (default `NAME=secret`), and under which file name. */
  oracle?: { text: string; filePath: string };
}

const rule = (name: string) => `@secretlint/secretlint-rule-${name}`;
const bearerCurl = (token: string) => `curl -fsS -H "Authorization: Bearer ${token}" https://api.internal.net/v1/me`;

function token(ruleName: string, label: string, kind: string, secret: string, name: string, shell = bearerCurl(secret)): SecretSample {
  return { rule: rule(ruleName), label, kind, shape: 'token', secret, name, shell };
}

function urlPassword(
  ruleName: string,
  label: string,
  scheme: string,
  seed: number,
  name: string,
  shell: (url: string) => string,
): SecretSample {
  const secret = gen(ALNUM, 18, seed);
  const url = `${scheme}://app_${gen(LOWER, 5, seed)}:${secret}@db-${gen(LOWER, 4, seed)}.internal.net:5432/orders`;
  return { rule: rule(ruleName), label, kind: 'url-credentials', shape: 'url-password', secret, url, name, shell: shell(url) };
}

// The preset's rule wants a word boundary after the key: its last character is alphanumeric.
const awsSecret = `${gen(ALNUM + '/+', 39, 1)}Q`;
const privateKey = pem(2);
const npmrcToken = `${gen(HEX, 8, 3)}-${gen(HEX, 4, 4)}-${gen(HEX, 4, 5)}-${gen(HEX, 4, 6)}-${gen(HEX, 12, 7)}`;
const oauthToken = gen(HEX, 40, 8);
const basicPassword = `Pw${gen(ALNUM, 14, 9)}`;
const basicUrl = `https://deploy-bot:${basicPassword}@git.internal.net/team/app.git`;
const webhook = `https://hooks.slack.com/services/T${gen(UPPER + DIGITS, 8, 10)}/B${gen(UPPER + DIGITS, 10, 11)}/${gen(ALNUM, 24, 12)}`;
const dbPassword = `Hunter${gen(ALNUM, 10, 55)}`;
const gcpJson = JSON.stringify({
  type: 'service_account',
  project_id: 'baton-test',
  private_key_id: gen(HEX, 40, 13),
  private_key: `${pem(14)}\n`,
  client_email: 'ci@baton-test.iam.gserviceaccount.com',
});

/** Every kind of the recommended preset, at least one sample each. */
export const PRESET_SAMPLES: readonly SecretSample[] = [
  {
    rule: rule('aws'),
    label: 'AWS secret access key',
    kind: 'aws',
    shape: 'contextual',
    secret: awsSecret,
    name: 'AWS_SECRET_ACCESS_KEY',
    shell: `AWS_SECRET_ACCESS_KEY=${awsSecret} aws s3 ls`,
  },
  {
    rule: rule('gcp'),
    label: 'GCP service account key (JSON)',
    kind: 'private-key',
    shape: 'contextual',
    secret: pem(14),
    name: 'GOOGLE_PRIVATE_KEY',
    shell: `printf '%s' '${gcpJson}' > sa.json && gcloud auth activate-service-account --key-file sa.json`,
    oracle: { text: gcpJson, filePath: '/work/service-account.json' },
  },
  {
    rule: rule('privatekey'),
    label: 'PEM private key',
    kind: 'private-key',
    shape: 'token',
    secret: privateKey,
    name: 'SSH_PRIVATE_KEY',
    shell: `printf '%s\\n' '${privateKey}' > ~/.ssh/id_rsa && chmod 600 ~/.ssh/id_rsa`,
  },
  token('npm', 'npm access token', 'npm', `npm_${gen(ALNUM, 36, 16)}`, 'NPM_TOKEN'),
  {
    rule: rule('npm'),
    label: 'npmrc _authToken',
    kind: 'assignment',
    shape: 'contextual',
    secret: npmrcToken,
    name: 'NPM_AUTH_TOKEN',
    shell: `echo "//registry.npmjs.org/:_authToken=${npmrcToken}" >> ~/.npmrc`,
    oracle: { text: `//registry.npmjs.org/:_authToken=${npmrcToken}\n`, filePath: '/home/dev/.npmrc' },
  },
  {
    rule: rule('npm'),
    label: 'GitHub token in a package.json x-oauth-basic URL',
    kind: 'url-credentials',
    shape: 'url-password',
    secret: oauthToken,
    url: `git+https://${oauthToken}:x-oauth-basic@github.com/team/private-lib.git`,
    name: 'LIB_URL',
    shell: `npm install git+https://${oauthToken}:x-oauth-basic@github.com/team/private-lib.git`,
    oracle: {
      text: JSON.stringify({ dependencies: { lib: `https://${oauthToken}:x-oauth-basic@github.com/team/private-lib.git` } }),
      filePath: '/work/package.json',
    },
  },
  {
    rule: rule('basicauth'),
    label: 'basic auth in a URL',
    kind: 'url-credentials',
    shape: 'url-password',
    secret: basicPassword,
    url: basicUrl,
    name: 'REPO_URL',
    shell: `git clone ${basicUrl}`,
  },
  token('slack', 'Slack bot token', 'slack', `xoxb-${gen(DIGITS, 12, 17)}-${gen(DIGITS, 13, 18)}-${gen(ALNUM, 24, 19)}`, 'SLACK_BOT_TOKEN'),
  token(
    'slack',
    'Slack app token',
    'slack',
    `xapp-1-A${gen(UPPER + DIGITS, 10, 20)}-${gen(DIGITS, 13, 21)}-${gen(HEX, 40, 22)}`,
    'SLACK_APP_TOKEN',
  ),
  {
    rule: rule('slack'),
    label: 'Slack incoming webhook',
    kind: 'slack-webhook',
    shape: 'url',
    secret: webhook,
    url: webhook,
    name: 'SLACK_WEBHOOK',
    shell: `curl -X POST -H 'Content-type: application/json' --data '{"text":"deployed"}' ${webhook}`,
  },
  token('sendgrid', 'SendGrid API key', 'sendgrid', `SG.${gen(ALNUM + '_-', 22, 23)}.${gen(ALNUM + '_-', 43, 24)}`, 'SENDGRID_API_KEY'),
  token('shopify', 'Shopify access token', 'shopify', `shpat_${gen(HEX, 32, 25)}`, 'SHOPIFY_ACCESS_TOKEN'),
  token('github', 'GitHub personal access token', 'github', `ghp_${gen(ALNUM, 36, 26)}`, 'GITHUB_TOKEN'),
  token('github', 'GitHub fine-grained token', 'github', `github_pat_${gen(ALNUM, 22, 27)}_${gen(ALNUM, 59, 28)}`, 'GH_TOKEN'),
  token('gitlab', 'GitLab personal access token', 'gitlab', `glpat-${gen(ALNUM + '_-', 20, 29)}`, 'GITLAB_TOKEN'),
  token('grafana', 'Grafana cloud token', 'grafana', grafanaCloudToken(30), 'GRAFANA_CLOUD_TOKEN'),
  token('grafana', 'Grafana service account token', 'grafana', `glsa_${gen(ALNUM, 32, 31)}_${gen(HEX, 8, 32)}`, 'GRAFANA_SA_TOKEN'),
  token(
    'openai',
    'OpenAI project key',
    'openai',
    `sk-proj-${gen(ALNUM + '_-', 74, 33)}${'T3Blbk'}FJ${gen(ALNUM + '_-', 74, 34)}`,
    'OPENAI_API_KEY',
  ),
  token('anthropic', 'Anthropic API key', 'anthropic', `sk-ant-api03-${gen(ALNUM + '_-', 93, 35)}AA`, 'ANTHROPIC_API_KEY'),
  token('groq', 'Groq API key', 'groq', `gsk_${gen(ALNUM, 52, 36)}`, 'GROQ_API_KEY'),
  token('huggingface', 'Hugging Face token', 'huggingface', `hf_${gen(UPPER + LOWER, 34, 37)}`, 'HF_TOKEN'),
  token('linear', 'Linear API key', 'linear', `lin_api_${gen(ALNUM, 40, 38)}`, 'LINEAR_API_KEY'),
  token('notion', 'Notion integration token', 'notion', `ntn_${gen(DIGITS, 11, 39)}${gen(ALNUM, 35, 40)}`, 'NOTION_TOKEN'),
  token('1password', '1Password service account token', '1password', onePasswordToken(41), 'OP_SERVICE_ACCOUNT_TOKEN'),
  urlPassword(
    'database-connection-string',
    'PostgreSQL connection string',
    'postgres',
    42,
    'DATABASE_URL',
    (url) => `psql "${url}" -c 'select 1'`,
  ),
  urlPassword(
    'database-connection-string',
    'MySQL connection string',
    'mysql',
    43,
    'MYSQL_URL',
    (url) => `mysqlsh --uri ${url} --sql -e 'select 1'`,
  ),
  urlPassword(
    'database-connection-string',
    'MongoDB connection string',
    'mongodb+srv',
    44,
    'MONGO_URL',
    (url) => `mongosh "${url}" --eval 'db.stats()'`,
  ),
  token('hashicorp-vault', 'Vault service token', 'hashicorp-vault', `hvs.${gen(ALNUM + '_-', 95, 45)}`, 'VAULT_TOKEN'),
  token('vercel', 'Vercel token', 'vercel', `vcp_${gen(ALNUM, 24, 46)}`, 'VERCEL_TOKEN'),
  token('databricks', 'Databricks token', 'databricks', `dapi${gen(HEX, 32, 47)}`, 'DATABRICKS_TOKEN'),
  token('docker', 'Docker personal access token', 'docker', `dckr_pat_${gen(ALNUM + '_-', 27, 48)}`, 'DOCKER_PAT'),
  token('figma', 'Figma token', 'figma', `figd_${gen(ALNUM + '_-', 43, 49)}`, 'FIGMA_TOKEN'),
];

/** Baton's own kinds, beyond the preset's. */
export const BATON_SAMPLES: readonly SecretSample[] = [
  token('baton', 'AWS access key id', 'aws', `${'AKIA'}${gen(UPPER + DIGITS, 16, 50)}`, 'AWS_ACCESS_KEY_ID'),
  token('baton', 'Google API key', 'google', `${'AIza'}${gen(ALNUM + '_-', 35, 51)}`, 'GOOGLE_API_KEY'),
  token('baton', 'Stripe secret key', 'stripe', `sk_${'live'}_${gen(ALNUM, 24, 52)}`, 'STRIPE_SECRET_KEY'),
  token(
    'baton',
    'JWT',
    'jwt',
    `${base64url('{"alg":"HS256","typ":"JWT"}')}.${base64url(`{"sub":"${gen(DIGITS, 8, 53)}","name":"ci"}`)}.${gen(ALNUM + '_-', 43, 54)}`,
    'ID_TOKEN',
  ),
  {
    rule: 'baton',
    label: 'password assignment',
    kind: 'assignment',
    shape: 'contextual',
    secret: dbPassword,
    name: 'DB_PASSWORD',
    shell: `DB_PASSWORD=${dbPassword} npm run migrate`,
  },
  {
    rule: 'baton',
    label: 'Redis URL password',
    kind: 'url-credentials',
    shape: 'url-password',
    secret: gen(ALNUM, 20, 56),
    url: `redis://:${gen(ALNUM, 20, 56)}@cache.internal.net:6379/0`,
    name: 'REDIS_URL',
    shell: `redis-cli -u redis://:${gen(ALNUM, 20, 56)}@cache.internal.net:6379/0 ping`,
  },
];
