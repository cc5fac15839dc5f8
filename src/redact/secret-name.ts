/*
 * Whether a variable, key, flag or header name says its value is a secret. The name is cut into
 * words (`AWS_SECRET_ACCESS_KEY`, `awsSecretAccessKey`, `--aws-secret-access-key` all give aws,
 * secret, access, key) and judged word by word, so `max_tokens`, `tokenizer` and `PWD` stay
 * readable while every `…_ACCESS_KEY`, `…Token` and `DB_PASS` is masked (issue 34: the old keyword
 * list matched the name's last word only and knew no `…_ACCESS_KEY`).
 */

/** A word that ends with one of these names a secret: `password`, `pgpassword`, `githubtoken`. */
const SECRET_WORD_ENDINGS = [
  'password',
  'passwd',
  'passphrase',
  'secret',
  'token',
  'apikey',
  'accesskey',
  'secretkey',
  'privatekey',
  'credential',
  'credentials',
] as const;

/** Whole words that name a secret on their own (`DB_PASS`, `NPM_AUTH`, `MYSQL_PWD`). */
const SECRET_WORDS: ReadonlySet<string> = new Set(['pass', 'auth', 'pwd']);

/** `key` names a secret after one of these words (`API_KEY`, `signingKey`), not after `sort`, `cache`. */
const KEY_QUALIFIERS: ReadonlySet<string> = new Set([
  'access',
  'account',
  'admin',
  'api',
  'app',
  'auth',
  'client',
  'consumer',
  'deploy',
  'encryption',
  'license',
  'master',
  'private',
  'secret',
  'service',
  'session',
  'signing',
  'ssh',
  'webhook',
]);

/**
 * A last word that makes the value something *about* a secret, not the secret: a path, a name, a
 * count (`GITHUB_TOKEN_FILE`, `--api-key-env`, `token_count`, `SECRET_NAME`, `private_key_id`).
 */
const NOT_A_SECRET_LAST_WORDS: ReadonlySet<string> = new Set(
  (
    'algorithm budget count dir enabled endpoint env expires expiry field file format header helper host id ' +
    'issuer kind len length limit location max method min mode name path prefix provider scope scopes size ' +
    'ttl type uri url usage user username var version'
  ).split(' '),
);

/** The words of a name, lower case: `awsSecretAccessKey` and `--aws-secret-access-key` alike. */
export function nameWords(name: string): string[] {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1 $2')
    .toLowerCase()
    .split(/[^a-z0-9]+/)
    .filter((word) => word.length > 0);
}

/** Whether a value under this name is a secret (`AWS_SECRET_ACCESS_KEY`: yes; `max_tokens`: no). */
export function isSecretName(name: string): boolean {
  const words = nameWords(name);
  const last = words[words.length - 1];
  if (last === undefined || NOT_A_SECRET_LAST_WORDS.has(last)) return false;
  // `PWD` alone is the shell's working directory; `MYSQL_PWD` is a password.
  if (words.length === 1 && last === 'pwd') return false;
  return words.some((word, i) => {
    if (SECRET_WORDS.has(word)) return true;
    if (SECRET_WORD_ENDINGS.some((ending) => word.endsWith(ending))) return true;
    const before = words[i - 1];
    return word === 'key' && before !== undefined && KEY_QUALIFIERS.has(before);
  });
}

/** Values that are no secret whatever their name: placeholders, references, types, markers. */
const PLACEHOLDER =
  /^(?:\$|%[A-Za-z_]|\{\{|<|\[REDACTED|process\.env|os\.environ|env\.|secrets\.|vars\.)|^(?:null|none|nil|true|false|undefined|string|number|boolean|object|unknown|required|optional|redacted|changeme|password|secret|token|example|\*+|x+|\.+|-+)$/i;

/** Whether a value found under a secret name is a real value, not a placeholder or a reference. */
export function isSecretValue(value: string): boolean {
  return !PLACEHOLDER.test(value);
}
